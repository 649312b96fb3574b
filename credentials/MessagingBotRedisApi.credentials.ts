import type { ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * The Redis that the Messaging Bot Trigger and Scenario nodes share state in under n8n queue mode
 * (usually the one the queue runs on). Tested by the nodes (`testedBy`): a PING, not an HTTP call.
 */
export class MessagingBotRedisApi implements ICredentialType {
	name = 'messagingBotRedisApi';

	displayName = 'Messaging Bot Redis State Store API';

	icon = {
		light: 'file:../nodes/MessagingBot/messagingBot.svg',
		dark: 'file:../nodes/MessagingBot/messagingBot.dark.svg',
	} as const;

	documentationUrl =
		'https://example.invalid/n8n-nodes-messaging-bot#queue-mode-a-shared-state-store';

	properties: INodeProperties[] = [
		{
			displayName: 'Host',
			name: 'host',
			type: 'string',
			default: 'localhost',
			description: "The Redis host; with queue mode, the value of n8n's QUEUE_BULL_REDIS_HOST",
		},
		{
			displayName: 'Port',
			name: 'port',
			type: 'number',
			default: 6379,
		},
		{
			displayName: 'User',
			name: 'user',
			type: 'string',
			default: '',
			description: 'Leave empty unless the Redis uses ACL users',
		},
		{
			displayName: 'Password',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			default: '',
		},
		{
			displayName: 'Database Number',
			name: 'database',
			type: 'number',
			default: 0,
		},
		{
			displayName: 'SSL',
			name: 'ssl',
			type: 'boolean',
			default: false,
		},
		{
			displayName: 'Ignore SSL Issues (Insecure)',
			name: 'disableTlsVerification',
			type: 'boolean',
			default: false,
			displayOptions: { show: { ssl: [true] } },
			description: 'Whether to connect even if the certificate cannot be verified',
		},
	];
}
