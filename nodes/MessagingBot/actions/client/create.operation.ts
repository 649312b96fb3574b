import type { IDataObject } from 'n8n-workflow';

import { splitTags } from '../../../../runtime/tags';
import { jsonObject } from '../params';
import type { Operation } from '../types';

const show = { resource: ['client'], operation: ['create'] };

export const create: Operation = {
	description: [
		{
			displayName:
				'If a client with this email or phone exists, it is returned unchanged and no duplicate is made',
			name: 'createNotice',
			type: 'notice',
			default: '',
			displayOptions: { show },
		},
		{
			displayName: 'Email',
			name: 'email',
			type: 'string',
			placeholder: 'name@email.com',
			default: '',
			description: 'Email or phone (or both) is required',
			displayOptions: { show },
		},
		{
			displayName: 'Phone',
			name: 'phone',
			type: 'string',
			default: '',
			placeholder: '+442071234567',
			description:
				'International format with a leading plus. Email or phone (or both) is required.',
			displayOptions: { show },
		},
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			displayOptions: { show },
			options: [
				{
					displayName: 'Custom Fields',
					name: 'custom_fields',
					type: 'json',
					default: '{}',
					description: 'Any JSON object, up to 16 KB',
				},
				{ displayName: 'First Name', name: 'first_name', type: 'string', default: '' },
				{ displayName: 'Last Name', name: 'last_name', type: 'string', default: '' },
				{
					displayName: 'Tags',
					name: 'tags',
					type: 'string',
					default: '',
					placeholder: 'e.g. customer, vip',
					description: 'Separated by commas',
				},
			],
		},
	],
	async execute(client, i) {
		const extra = this.getNodeParameter('additionalFields', i, {}) as IDataObject;
		const email = (this.getNodeParameter('email', i, '') as string).trim();
		const phone = (this.getNodeParameter('phone', i, '') as string).trim();
		const tags = splitTags(extra.tags);
		const { client: record, created } = await client.createClient({
			email: email || undefined,
			phone: phone || undefined,
			first_name: extra.first_name ? String(extra.first_name) : undefined,
			last_name: extra.last_name ? String(extra.last_name) : undefined,
			custom_fields: jsonObject(extra.custom_fields, 'custom_fields'),
			tags: tags.length ? tags : undefined,
		});
		return [{ ...record, created } as IDataObject];
	},
};
