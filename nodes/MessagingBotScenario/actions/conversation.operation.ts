import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { ScenarioEngine } from '../../../runtime/scenarios';

/** Release to Bot: a human is done; the bot answers this client again. Get: the conversation. */
export async function conversationOperation(
	this: IExecuteFunctions,
	engine: ScenarioEngine,
	operation: 'release' | 'getConversation',
): Promise<INodeExecutionData[][]> {
	const out: INodeExecutionData[] = [];
	const items = this.getInputData();
	for (let i = 0; i < items.length; i++) {
		const botId = (this.getNodeParameter('botId', i) as string).trim();
		const clientId = (this.getNodeParameter('clientId', i) as string).trim();
		if (operation === 'release') {
			const r = await engine.release(botId, clientId);
			out.push({
				json: {
					released: r.released,
					conversation: (r.conversation ?? null) as IDataObject | null,
					actions: r.actions as unknown as IDataObject[],
				},
				pairedItem: { item: i },
			});
		} else {
			const conversation = await engine.conversation(botId, clientId);
			out.push({
				json: (conversation ?? { bot_id: botId, client_id: clientId, found: false }) as IDataObject,
				pairedItem: { item: i },
			});
		}
	}
	return [out, []];
}
