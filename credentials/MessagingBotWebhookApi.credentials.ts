import type { ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * The signing secret(s) of a webhook subscription, for the Messaging Bot Triggers. Tested by the
 * triggers (`testedBy`): the service has no endpoint that checks a secret, so the test checks the
 * secrets' form and says that is what it checked; the triggers check it again when they start.
 */
export class MessagingBotWebhookApi implements ICredentialType {
	name = 'messagingBotWebhookApi';

	displayName = 'Messaging Bot Webhook API';

	icon = {
		light: 'file:../nodes/MessagingBot/messagingBot.svg',
		dark: 'file:../nodes/MessagingBot/messagingBot.dark.svg',
	} as const;

	documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-messaging-bot#messaging-bot-webhook-api';

	properties: INodeProperties[] = [
		{
			displayName:
				'The service signs every event with this secret. Saving tests the form of the secrets (set, no spaces at their ends, the previous one not the same); the service cannot be asked whether a secret is its own, so a different one shows as refused deliveries (401).',
			name: 'formTestNotice',
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
