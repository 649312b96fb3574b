import type { IDataObject } from 'n8n-workflow';

import { clientLocator, returnAllAndLimit } from '../common';
import { collect, locatorValue, maxResults } from '../params';
import type { Operation } from '../types';

export const getMessages: Operation = {
	description: [
		{
			...clientLocator,
			displayOptions: { show: { resource: ['client'], operation: ['getMessages'] } },
		},
		...returnAllAndLimit('client', 'getMessages'),
	],
	async execute(client, i) {
		const messages = client.iterateClientMessages(locatorValue(this, 'clientId', i), {
			max: maxResults(this, i),
		});
		return (await collect(messages)) as IDataObject[];
	},
};
