import type { ICredentialType, INodeProperties } from 'n8n-workflow';

import { redisFields } from './redisFields';

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
		'https://www.npmjs.com/package/n8n-nodes-messaging-bot#messaging-bot-redis-state-store-api';

	properties: INodeProperties[] = redisFields();
}
