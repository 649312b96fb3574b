import type { IDataObject } from 'n8n-workflow';

import { clientLocator } from '../common';
import { locatorValue } from '../params';
import type { Operation } from '../types';

export const get: Operation = {
	description: [
		{ ...clientLocator, displayOptions: { show: { resource: ['client'], operation: ['get'] } } },
	],
	async execute(client, i) {
		return [(await client.getClient(locatorValue(this, 'clientId', i))) as IDataObject];
	},
};
