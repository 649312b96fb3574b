import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import * as bot from './actions/bot';
import * as client from './actions/client';
import { router } from './actions/router';
import { searchBots, searchClients } from './methods/listSearch';

export class MessagingBot implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Messaging Bot',
		name: 'messagingBot',
		icon: { light: 'file:messagingBot.svg', dark: 'file:messagingBot.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description: 'Send bot messages, manage clients and tags, and read bot statistics',
		defaults: { name: 'Messaging Bot' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'messagingBotApi', required: true }],
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
		],
	};

	methods = { listSearch: { searchBots, searchClients } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
