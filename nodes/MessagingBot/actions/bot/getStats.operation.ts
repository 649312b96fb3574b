import type { IDataObject } from 'n8n-workflow';

import { botLocator } from '../common';
import { dateParam, locatorValue } from '../params';
import type { Operation } from '../types';

const show = { resource: ['bot'], operation: ['getStats'] };

export const getStats: Operation = {
	description: [
		{ ...botLocator, displayOptions: { show } },
		{
			displayName: 'Leave both dates empty for the last 30 days',
			name: 'periodNotice',
			type: 'notice',
			default: '',
			displayOptions: { show },
		},
		{
			displayName: 'From',
			name: 'from',
			type: 'dateTime',
			default: '',
			description: 'First day of the period (only the date is used)',
			displayOptions: { show },
		},
		{
			displayName: 'To',
			name: 'to',
			type: 'dateTime',
			default: '',
			description: 'Last day of the period; empty means today',
			displayOptions: { show },
		},
	],
	async execute(client, i) {
		const botId = locatorValue(this, 'botId', i);
		const stats = await client.getBotStats(botId, {
			from: dateParam(this.getNodeParameter('from', i, '')),
			to: dateParam(this.getNodeParameter('to', i, '')),
		});
		return [{ bot_id: botId, ...stats } as IDataObject];
	},
};
