import type { ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * The signing secret(s) of a webhook subscription, for the Messaging Bot Triggers. No test: the
 * service has no endpoint that checks a secret, so the triggers check its form when they start.
 */
// A test would have nothing to connect to, and n8n would still say "Connection tested
// successfully": the triggers check the secrets' form when they start listening instead.
// eslint-disable-next-line @n8n/community-nodes/credential-test-required
export class MessagingBotWebhookApi implements ICredentialType {
	name = 'messagingBotWebhookApi';

	displayName = 'Messaging Bot Webhook API';

	icon = {
		light: 'file:../nodes/MessagingBot/messagingBot.svg',
		dark: 'file:../nodes/MessagingBot/messagingBot.dark.svg',
	} as const;

	documentationUrl =
		'https://www.npmjs.com/package/n8n-nodes-messaging-bot#the-credential-messaging-bot-webhook-api';

	properties: INodeProperties[] = [
		{
			displayName:
				'There is nothing to connect to here, so this credential has no test. The trigger checks the secrets when it starts listening, and the service signs every event with the secret.',
			name: 'noTestNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Signing Secret',
			name: 'secret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'The secret key of the webhook subscription in the service dashboard. Deliveries without a valid signature are refused.',
		},
		{
			displayName: 'Previous Signing Secret',
			name: 'previousSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'While rotating: the old secret, still accepted so no event is lost. Clear it once the dashboard uses the new one.',
		},
	];
}
