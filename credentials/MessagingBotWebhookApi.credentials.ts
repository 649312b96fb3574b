import type { ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * The signing secret(s) of a webhook subscription, for the Messaging Bot Trigger. Tested by the
 * trigger node (`testedBy`): the service has no endpoint that checks a secret.
 */
export class MessagingBotWebhookApi implements ICredentialType {
	name = 'messagingBotWebhookApi';

	displayName = 'Messaging Bot Webhook API';

	icon = {
		light: 'file:../nodes/MessagingBot/messagingBot.svg',
		dark: 'file:../nodes/MessagingBot/messagingBot.dark.svg',
	} as const;

	documentationUrl = 'https://example.invalid/n8n-nodes-messaging-bot#messaging-bot-trigger';

	properties: INodeProperties[] = [
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
