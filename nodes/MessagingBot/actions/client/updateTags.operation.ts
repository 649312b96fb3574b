import type { IDataObject } from 'n8n-workflow';

import { changeTags } from '../../../../runtime/api';
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
				'Tags the client gets, separated by commas; ones it has already are left as they are (and not in tags_added)',
			displayOptions: { show },
		},
		{
			displayName: 'Tags to Remove',
			name: 'remove',
			type: 'string',
			default: '',
			placeholder: 'e.g. lead',
			description:
				'Tags taken off the client, separated by commas; ones it does not have are ignored (and not in tags_removed)',
			displayOptions: { show },
		},
		{
			displayName: 'Check Current Tags First',
			name: 'checkTags',
			type: 'boolean',
			default: true,
			description:
				"Whether to read the client's tags before the change, so tags_added and tags_removed list only real changes. It costs one more request per client: turn it off for large jobs (the lists then repeat the tags asked for).",
			displayOptions: { show },
		},
	],
	async execute(client, i) {
		const add = tagList(this, 'add', i);
		const remove = tagList(this, 'remove', i);
		const record = await changeTags(
			client,
			locatorValue(this, 'clientId', i),
			{ add: add.length ? add : undefined, remove: remove.length ? remove : undefined },
			{ readFirst: this.getNodeParameter('checkTags', i, true) as boolean },
		);
		return [record as IDataObject];
	},
};
