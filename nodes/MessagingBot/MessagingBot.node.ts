import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import * as bot from './actions/bot';
import * as client from './actions/client';
import { router } from './actions/router';
import { searchBots, searchClients } from '../shared/listSearch';
import { DOCS } from '../shared/documentation';
import { messagingBotRedisPing } from '../shared/stateStore';
import { operationNames, subtitleFrom } from '../shared/subtitle';

/** "Bot: Send Message", "Client: Update Tags": the names of the Resource and Operation dropdowns. */
const subtitles = Object.fromEntries(
	[
		['bot', 'Bot', bot.description],
		['client', 'Client', client.description],
	].flatMap(([resource, label, description]) =>
		Object.entries(operationNames(description as INodeProperties[])).map(([op, name]) => [
			`${resource as string}:${op}`,
			`${label as string}: ${name}`,
		]),
	),
);

export class MessagingBot implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Messaging Bot',
		name: 'messagingBot',
		icon: { light: 'file:messagingBot.svg', dark: 'file:messagingBot.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: subtitleFrom(subtitles, '$parameter["resource"] + ":" + $parameter["operation"]'),
		description: 'Send bot messages, manage clients and tags, and read bot statistics',
		defaults: { name: 'Messaging Bot' },
		// Used as is by the editor's Docs link (the codex URL would get tracking added after the anchor).
		documentationUrl: DOCS.messagingBot,
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'messagingBotApi', required: true },
			// Queue mode: the Redis the API credential's request budget is shared through, when its
			// Request Budget says so (the same credential the Scenario and Trigger nodes keep state in).
			{ name: 'messagingBotRedisApi', required: false, testedBy: 'messagingBotRedisPing' },
		],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Bot', value: 'bot' },
					{ name: 'Client', value: 'client' },
				],
				default: 'client',
			},
			...bot.description,
			...client.description,
			{
				displayName: 'Request Options',
				name: 'requestOptions',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					{
						displayName: 'Priority',
						name: 'priority',
						type: 'options',
						default: 'bulk',
						options: [
							{
								name: 'Bulk',
								value: 'bulk',
								description: 'Takes turns with other bulk work on this API key',
							},
							{
								name: 'Interactive',
								value: 'interactive',
								description:
									'Goes before bulk work on this API key: for an answer someone is waiting for',
							},
						],
						description:
							'The API key allows 100 requests a minute. Interactive requests (and bot replies) are sent before bulk work such as a job of tag updates.',
					},
				],
			},
		],
	};

	methods = {
		listSearch: { searchBots, searchClients },
		credentialTest: { messagingBotRedisPing },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
