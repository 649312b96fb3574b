import type { IDataObject } from 'n8n-workflow';

import { clientLocator } from '../common';
import { locatorValue, tagList } from '../params';
import type { Operation } from '../types';

const show = { resource: ['client'], operation: ['updateTags'] };

export const updateTags: Operation = {
	description: [
		{ ...clientLocator, displayOptions: { show } },
		{
			displayName: 'Tags to Add',
			name: 'add',
			type: 'string',
			default: '',
			placeholder: 'e.g. customer, vip',
			description:
				'Tags the client gets, separated by commas; ones it has already are left as they are',
			displayOptions: { show },
		},
		{
			displayName: 'Tags to Remove',
			name: 'remove',
			type: 'string',
			default: '',
			placeholder: 'e.g. lead',
			description:
				'Tags taken off the client, separated by commas; ones it does not have are ignored',
			displayOptions: { show },
		},
	],
	async execute(client, i) {
		const add = tagList(this, 'add', i);
		const remove = tagList(this, 'remove', i);
		const record = await client.updateTags(locatorValue(this, 'clientId', i), {
			add: add.length ? add : undefined,
			remove: remove.length ? remove : undefined,
		});
		return [record as IDataObject];
	},
};
