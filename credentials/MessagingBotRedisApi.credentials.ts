import type { ICredentialType, INodeProperties } from 'n8n-workflow';

import { redisFields } from './redisFields';

/**
 * The one Redis of n8n queue mode (usually the one the queue runs on): the Trigger and Scenario
 * nodes keep their state in it, and an API credential whose Request Budget is "Shared Through
 * Redis" counts its requests in it. Tested by the nodes (`testedBy`): a PING, not an HTTP call.
 */
export class MessagingBotRedisApi implements ICredentialType {
	name = 'messagingBotRedisApi';

	displayName = 'Messaging Bot Redis State Store API';

	icon = {
		light: 'file:../nodes/MessagingBot/messagingBot.svg',
		dark: 'file:../nodes/MessagingBot/messagingBot.dark.svg',
	} as const;

	documentationUrl =
		'https://www.npmjs.com/package/n8n-nodes-messaging-bot#messaging-bot-redis-state-store-api';

	properties: INodeProperties[] = redisFields();
}
