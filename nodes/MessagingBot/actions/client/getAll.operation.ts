import type { IDataObject } from 'n8n-workflow';

import { splitTags } from '../../../../runtime/tags';
import { returnAllAndLimit } from '../common';
import { collect, dateParam, jsonObject, maxResults } from '../params';
import type { Operation } from '../types';

const show = { resource: ['client'], operation: ['getAll'] };

export const getAll: Operation = {
	description: [
		...returnAllAndLimit('client', 'getAll'),
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			displayOptions: { show },
			options: [
				{
					displayName: 'Created After',
					name: 'created_after',
					type: 'dateTime',
					default: '',
					description: 'Only clients created on or after this day',
				},
				{
					displayName: 'Custom Fields',
					name: 'custom_fields',
					type: 'json',
					default: '{}',
					description: 'Only clients whose custom fields have all of these top-level values',
				},
				{
					displayName: 'Email',
					name: 'email',
					type: 'string',
					placeholder: 'name@email.com',
					default: '',
				},
				{
					displayName: 'Phone',
					name: 'phone',
					type: 'string',
					default: '',
					placeholder: '+442071234567',
					description: 'In international format with a leading plus',
				},
				{
					displayName: 'Tags',
					name: 'tags',
					type: 'string',
					default: '',
					placeholder: 'e.g. customer, vip',
					description: 'Only clients that have all of these tags, separated by commas',
				},
			],
		},
	],
	async execute(client, i) {
		const f = this.getNodeParameter('filters', i, {}) as IDataObject;
		const tags = splitTags(f.tags);
		const customFields = jsonObject(f.custom_fields, 'custom_fields');
		const filters = {
			email: f.email ? String(f.email) : undefined,
			phone: f.phone ? String(f.phone) : undefined,
			tags: tags.length ? tags : undefined,
			created_after: dateParam(f.created_after),
			custom_fields: customFields && Object.keys(customFields).length ? customFields : undefined,
		};
		return (await collect(
			client.iterateClients(filters, { max: maxResults(this, i) }),
		)) as IDataObject[];
	},
};
