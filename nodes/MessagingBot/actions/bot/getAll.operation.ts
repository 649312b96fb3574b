import type { IDataObject } from 'n8n-workflow';

import { returnAllAndLimit } from '../common';
import { maxResults } from '../params';
import type { Operation } from '../types';

export const getAll: Operation = {
	description: returnAllAndLimit('bot', 'getAll'),
	async execute(client, i) {
		const bots = await client.listBots();
		return bots.slice(0, maxResults(this, i) ?? bots.length) as IDataObject[];
	},
};
