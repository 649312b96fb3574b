import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../types';
import { activateScenario } from './activateScenario.operation';
import { getAll } from './getAll.operation';
import { getStats } from './getStats.operation';
import { sendMessage } from './sendMessage.operation';

export const operations: Record<string, Operation> = {
	activateScenario,
	getAll,
	getStats,
	sendMessage,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['bot'] } },
		options: [
			{
				name: 'Activate Scenario',
				value: 'activateScenario',
				action: 'Activate a scenario',
				description: 'Make a scenario the one the bot runs',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many bots',
				description: 'List the bots of the account',
			},
			{
				name: 'Get Statistics',
				value: 'getStats',
				action: 'Get bot statistics',
				description: 'New clients, messages, active clients and conversion for a period',
			},
			{
				name: 'Send Message',
				value: 'sendMessage',
				action: 'Send a message',
				description: 'Send a text message to a client in the name of the bot',
			},
		],
		default: 'sendMessage',
	},
	...sendMessage.description,
	...getStats.description,
	...activateScenario.description,
	...getAll.description,
];
