import type { ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * The PostgreSQL that the Messaging Bot Trigger and Scenario nodes keep their state in: n8n's own
 * database in queue mode, or another. Fields named and laid out as n8n's Postgres credential.
 * Tested by the nodes (`testedBy`): a connection and SELECT 1, not an HTTP call.
 */
export class MessagingBotPostgresApi implements ICredentialType {
	name = 'messagingBotPostgresApi';

	displayName = 'Messaging Bot PostgreSQL State Store API';

	icon = {
		light: 'file:../nodes/MessagingBot/messagingBot.svg',
		dark: 'file:../nodes/MessagingBot/messagingBot.dark.svg',
	} as const;

	documentationUrl =
		'https://www.npmjs.com/package/n8n-nodes-messaging-bot#messaging-bot-postgresql-state-store-api';

	properties: INodeProperties[] = [
		{
			displayName: 'Host',
			name: 'host',
			type: 'string',
			default: 'localhost',
			description: "With n8n's own database: the value of n8n's DB_POSTGRESDB_HOST",
		},
		{ displayName: 'Database', name: 'database', type: 'string', default: 'postgres' },
		{ displayName: 'User', name: 'user', type: 'string', default: 'postgres' },
		{
			displayName: 'Password',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			default: '',
		},
		{ displayName: 'Port', name: 'port', type: 'number', default: 5432 },
		{
			displayName: 'SSL',
			name: 'ssl',
			type: 'options',
			default: 'disable',
			options: [
				{ name: 'Disable', value: 'disable', description: 'Plain connection' },
				{
					name: 'Allow',
					value: 'allow',
					description:
						'Plain connection; encrypted (certificate not checked) if the server insists',
				},
				{
					name: 'Require',
					value: 'require',
					description: 'Encrypted; the certificate is not checked',
				},
				{
					name: 'Verify',
					value: 'verify',
					description: 'Encrypted; the certificate and host name are checked',
				},
			],
		},
		{
			displayName: 'CA Certificate',
			name: 'caCertificate',
			type: 'string',
			typeOptions: { password: true, rows: 4 },
			default: '',
			displayOptions: { show: { ssl: ['verify'] } },
			description:
				"The certificate authority the server's certificate must chain to (PEM). Leave empty to use the system's.",
		},
		{
			displayName: 'Schema',
			name: 'schema',
			type: 'string',
			default: 'messaging_bot',
			description:
				"Where the tables are made on first use (letters, digits, underscores). A schema of its own keeps them apart from n8n's tables.",
		},
		{
			displayName: 'Flush Each Write to Disk',
			name: 'flushEachWrite',
			type: 'boolean',
			default: true,
			description:
				"Whether each write waits until PostgreSQL has it on disk (PostgreSQL's default). Off: several times faster where the disk flushes slowly, but a crash of the database server (not of n8n) loses the last fraction of a second of writes, and some replies may then be sent twice.",
		},
		{
			displayName: 'Maximum Connections',
			name: 'maxConnections',
			type: 'number',
			default: 10,
			typeOptions: { minValue: 1 },
			description: 'Per n8n process (main and each worker)',
		},
	];
}
