import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../types';
import { create } from './create.operation';
import { get } from './get.operation';
import { getAll } from './getAll.operation';
import { getMessages } from './getMessages.operation';
import { updateTags } from './updateTags.operation';

export const operations: Record<string, Operation> = {
	create,
	get,
	getAll,
	getMessages,
	updateTags,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['client'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create a client',
				description: 'Create a client, or return the existing one with the same email or phone',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a client',
				description: 'Get a client with its message history, orders and tags',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many clients',
				description: 'Clients that match an email, phone, tags, creation date or custom fields',
			},
			{
				name: 'Get Messages',
				value: 'getMessages',
				action: 'Get messages of a client',
				description: 'Messages exchanged with the client, oldest first',
			},
			{
				name: 'Update Tags',
				value: 'updateTags',
				action: 'Update tags of a client',
				description: 'Add and remove tags',
			},
		],
		default: 'getAll',
	},
	...create.description,
	...get.description,
	...getAll.description,
	...getMessages.description,
	...updateTags.description,
];
