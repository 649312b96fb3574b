import type { INodeProperties } from 'n8n-workflow';

/** The bot picker: a searchable list from GET /bots, or an ID. */
export const botLocator: INodeProperties = {
	displayName: 'Bot',
	name: 'botId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The bot to act through',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: {
				searchListMethod: 'searchBots',
				searchable: true,
				searchFilterRequired: false,
			},
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. bot_shop',
			validation: [
				{ type: 'regex', properties: { regex: '^\\S*$', errorMessage: 'A bot ID has no spaces' } },
			],
		},
	],
};

/** The client picker: a list searched by email, or an ID (often from an earlier step). */
export const clientLocator: INodeProperties = {
	displayName: 'Client',
	name: 'clientId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The client (end user) to act on; choose By ID to map an ID from an earlier step',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: {
				searchListMethod: 'searchClients',
				searchable: true,
				searchFilterRequired: false,
			},
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. cl_8f2a41c09d3e7b65',
			validation: [
				{
					type: 'regex',
					properties: { regex: '^\\S*$', errorMessage: 'A client ID has no spaces' },
				},
			],
		},
	],
};

export function returnAllAndLimit(resource: string, operation: string): INodeProperties[] {
	const show = { resource: [resource], operation: [operation] };
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
			displayOptions: { show },
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			default: 50,
			typeOptions: { minValue: 1 },
			description: 'Max number of results to return',
			displayOptions: { show: { ...show, returnAll: [false] } },
		},
	];
}
