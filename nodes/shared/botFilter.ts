import type { INodeProperties } from 'n8n-workflow';

/**
 * The Bots filter of both triggers: the service's subscriptions are per account, so a workflow
 * for one bot would otherwise start for every bot's messages.
 */
export const botFilterProperties: INodeProperties[] = [
	{
		displayName: 'Bots',
		name: 'botFilter',
		type: 'options',
		noDataExpression: true,
		default: 'all',
		description:
			'Whose events start the workflow. An event of another bot is acknowledged and ignored; events of no bot (orders, clients) always start it.',
		options: [
			{ name: 'All Bots', value: 'all', description: 'Every bot of the service account' },
			{
				name: 'Bots From the List',
				value: 'list',
				description: 'Picked by name; the list is read with a Messaging Bot API credential',
			},
			{ name: 'Bots by ID', value: 'ids', description: 'Typed, e.g. bot_shop' },
		],
	},
	{
		displayName: 'Bot Names or IDs',
		name: 'bots',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getBots' },
		default: [],
		required: true,
		displayOptions: { show: { botFilter: ['list'] } },
		description:
			'Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
	},
	{
		displayName: 'Bot IDs',
		name: 'botIds',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'bot_shop, bot_support',
		displayOptions: { show: { botFilter: ['ids'] } },
		description: 'The IDs of the bots, separated by commas',
	},
];

type Context = { getNodeParameter(name: string, fallback: unknown): unknown };

/** The bots picked; empty for all. */
export function selectedBots(ctx: Context): string[] {
	const filter = ctx.getNodeParameter('botFilter', 'all') as string;
	const picked =
		filter === 'list'
			? ctx.getNodeParameter('bots', [])
			: filter === 'ids'
				? ctx.getNodeParameter('botIds', '')
				: [];
	const list = Array.isArray(picked) ? picked.map(String) : String(picked ?? '').split(',');
	return list.map((id) => id.trim()).filter(Boolean);
}
