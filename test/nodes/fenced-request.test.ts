/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling: timers, never loaded by n8n */
import type { IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';

import { FencedError } from '../../runtime/api/guard';
import { clientFor } from '../../nodes/shared/transport';
import { admin, apiCredential, useEmulator } from '../helpers/emulator';
import { outputOf, registerNodeType, runWorkflow } from '../helpers/n8n';
import { chain, itemsNode } from '../helpers/workflows';

/**
 * A node that sends a reply as a leased effect does, through n8n's request helper, and loses its
 * lease 300 ms later: what it waited for, and how long.
 */
class FencedSend implements INodeType {
	description = {
		displayName: 'Fenced Send',
		name: 'fencedSend',
		group: ['output'],
		version: 1,
		description: 'test',
		defaults: { name: 'Fenced Send' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: 'messagingBotApi', required: true }],
		properties: [],
	} as unknown as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const client = await clientFor(this, 'interactive');
		const lost = new AbortController();
		const timer = setTimeout(() => lost.abort(new FencedError('lease lost')), 300);
		const started = Date.now();
		const outcome = await client
			.sendMessage('bot_shop', { client_id: 'cl_ada', text: 'Shipped' }, { signal: lost.signal })
			.then(
				() => 'answered',
				(error: Error) => error.name,
			);
		clearTimeout(timer);
		const json = { outcome, ms: Date.now() - started, requests: client.requestCount };
		return [[{ json, pairedItem: { item: 0 } }]];
	}
}

// n8n's request helper puts the execution's cancel signal in place of the request's own: a worker
// whose lease is lost while its request hangs stops waiting for it all the same.
describe("the n8n transport: a guarded request in n8n's request helper", () => {
	const emulator = useEmulator();

	it('stops waiting on a request in flight when its signal fires', async () => {
		registerNodeType('test.fencedSend', new FencedSend());
		const e = emulator();
		await admin(e, 'POST', '/reset');
		await admin(e, 'POST', '/faults', { path: '/v1/bots/bot_shop/messages', kind: 'hang' });
		const send = {
			id: 'f',
			name: 'Fenced Send',
			type: 'test.fencedSend',
			typeVersion: 1,
			position: [200, 0] as [number, number],
			parameters: {},
			credentials: { messagingBotApi: { id: 'a', name: 'API' } },
		};
		const run = await runWorkflow(chain([itemsNode([{}]), send]), {
			messagingBotApi: apiCredential(e),
		});
		const [item] = outputOf(run, 'Fenced Send');
		expect(item.json.outcome).toBe('FencedError');
		expect(item.json.ms).toBeLessThan(5_000);
		// It had left: stopped waiting in flight, not in the budget's queue.
		expect(item.json.requests).toBe(1);
	});
});
