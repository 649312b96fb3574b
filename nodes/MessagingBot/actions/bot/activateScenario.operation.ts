import type { IDataObject } from 'n8n-workflow';

import { botLocator } from '../common';
import { locatorValue } from '../params';
import type { Operation } from '../types';

const show = { resource: ['bot'], operation: ['activateScenario'] };

export const activateScenario: Operation = {
	description: [
		{ ...botLocator, displayOptions: { show } },
		{
			displayName: 'Scenario ID',
			name: 'scenarioId',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. order_status',
			description: 'The scenario to activate, as named in the service dashboard',
			displayOptions: { show },
		},
	],
	async execute(client, i) {
		const result = await client.activateScenario(
			locatorValue(this, 'botId', i),
			(this.getNodeParameter('scenarioId', i) as string).trim(),
		);
		return [result as IDataObject];
	},
};
