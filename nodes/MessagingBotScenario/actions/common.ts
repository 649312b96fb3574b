import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

/** The conversation's bot, by default from the incoming item. */
export const botIdField: INodeProperties = {
	displayName: 'Bot ID',
	name: 'botId',
	type: 'string',
	default: '={{ $json.bot_id }}',
	required: true,
	description:
		"The bot of the conversation. Left as it is, it is the item's bot_id, or else the bot_id of the nearest earlier step (such as the trigger).",
};

/** The conversation's client, by default from the incoming item. */
export const clientIdField: INodeProperties = {
	displayName: 'Client ID',
	name: 'clientId',
	type: 'string',
	default: '={{ $json.client_id ?? $json.id }}',
	required: true,
	description:
		"The client of the conversation. Left as it is, it is the item's client_id (from the trigger or the Scenario node), the client's own ID on a Client step's item, or else the client_id of the nearest earlier step.",
};

const FIELDS = {
	botId: { field: 'bot_id', label: 'Bot ID' },
	clientId: { field: 'client_id', label: 'Client ID' },
} as const;

/**
 * The bot or client of an item: the parameter (by default read from the item), else the same
 * field of the nearest earlier step's linked item. So the defaults work after any node of the
 * package: a Client node's item has the client as `id` and no `bot_id`, the trigger's has both.
 */
function conversationId(ctx: IExecuteFunctions, param: keyof typeof FIELDS, i: number): string {
	const { field, label } = FIELDS[param];
	const given = ctx.getNodeParameter(param, i, '') as unknown;
	if (given !== undefined && given !== null && String(given).trim()) return String(given).trim();
	for (const parent of ctx.getParentNodes(ctx.getNode().name)) {
		const step = parent.name.replace(/\\/g, '\\\\').replace(/'/g, "\\'");
		try {
			const found = ctx.evaluateExpression(`{{ $('${step}').item.json.${field} }}`, i);
			if (found !== undefined && found !== null && String(found).trim())
				return String(found).trim();
		} catch {
			// That step's items are not linked to this one (or it has not run): look further back.
		}
	}
	throw new NodeOperationError(ctx.getNode(), `${label} is empty`, {
		itemIndex: i,
		description: `Neither this item nor an earlier step's item has a ${field}. Map it in ${label}, e.g. {{ $('Messaging Bot Trigger').item.json.${field} }}.`,
	});
}

/** Runs `work` on the conversation each input item names: one output item per input item. */
export async function perConversation(
	ctx: IExecuteFunctions,
	work: (botId: string, clientId: string) => Promise<IDataObject>,
): Promise<INodeExecutionData[][]> {
	const out: INodeExecutionData[] = [];
	const items = ctx.getInputData();
	for (let i = 0; i < items.length; i++) {
		const botId = conversationId(ctx, 'botId', i);
		const clientId = conversationId(ctx, 'clientId', i);
		// bot_id and client_id first, as on every item of the package, for the steps after.
		const json = { bot_id: botId, client_id: clientId, ...(await work(botId, clientId)) };
		out.push({ json, pairedItem: { item: i } });
	}
	return [out, []];
}
