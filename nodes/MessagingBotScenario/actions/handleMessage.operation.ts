import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { toNodeError } from '../../shared/errors';
import { needsHuman, resultItem } from './results';
import type { ScenarioOperation } from './types';

/**
 * Handles `message.received` items (from the Messaging Bot Trigger). Output 0 "Handled", output 1
 * "Needs a Human": the message that handed the client over, and every message while a human has it.
 */
export const handleMessage: ScenarioOperation = {
	description: [],
	async execute(engine) {
		const items = this.getInputData();
		const handled: INodeExecutionData[] = [];
		const human: INodeExecutionData[] = [];
		// Messages of different clients run in parallel; the engine keeps each client's in order.
		const results = await Promise.all(
			items.map(async (item, i) => {
				try {
					const data = item.json as IDataObject;
					if (data.event !== undefined && data.event !== 'message.received') {
						return { i, skip: `not a message.received event (${String(data.event)})` };
					}
					if (data.event === undefined && !data.message_id)
						return { i, error: notAMessage(this, i) };
					const result = await engine.handle({
						...data,
						message_id: String(data.message_id ?? ''),
						client_id: String(data.client_id ?? ''),
						bot_id: String(data.bot_id ?? ''),
						text: String(data.text ?? ''),
						channel: data.channel === undefined ? undefined : String(data.channel),
						timestamp: data.timestamp === undefined ? undefined : String(data.timestamp),
					});
					return { i, result };
				} catch (error) {
					return { i, error: error as Error };
				}
			}),
		);
		for (const r of results) {
			const pairedItem = { item: r.i };
			if ('skip' in r) {
				handled.push({ json: { status: 'skipped', reason: r.skip }, pairedItem });
			} else if ('error' in r) {
				const nodeError = toNodeError(this.getNode(), r.error, r.i);
				if (!this.continueOnFail()) throw nodeError;
				handled.push({ json: { error: nodeError.message }, error: nodeError, pairedItem });
			} else {
				const json = resultItem(r.result);
				(needsHuman(r.result) ? human : handled).push({
					json: { ...json, text: (items[r.i].json as IDataObject).text ?? null },
					pairedItem,
				});
				// Earlier messages whose own execution stopped, applied first by this one.
				for (const earlier of r.result.alsoApplied ?? []) {
					(needsHuman(earlier) ? human : handled).push({
						json: { ...resultItem(earlier), resumed: true },
						pairedItem,
					});
				}
			}
		}
		return [handled, human];
	},
};

/** An item that is no client message: the node was run by hand, or after the wrong step. */
function notAMessage(ctx: IExecuteFunctions, itemIndex: number): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), 'This item is not a message from a client', {
		itemIndex,
		description:
			'Handle Message answers the messages the Messaging Bot Trigger receives (event Message Received), so it has nothing to answer when run by hand. To try the scenario here, choose the operation Test Conversation; to answer clients, start the workflow with the Messaging Bot Trigger.',
	});
}
