/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling: real timers, never loaded by n8n */
import { MemoryStore } from '../../runtime/stores';
import { Dispatcher, receiveDelivery, startListener, type Answer } from '../../runtime/webhooks';
import { signedDelivery } from '../helpers/deliveries';

const SECRET = ['whsec', 'listener'].join('_');
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The own-port trigger's parts, as its node wires them: listener, intake, dispatcher. */
async function ownPort(run: (items: object[]) => Promise<void>, store = new MemoryStore()) {
	const errors: Error[] = [];
	const dispatcher = new Dispatcher(store, 'wf', run, (e) => errors.push(e));
	const receive = async (delivery: Parameters<typeof receiveDelivery>[0]): Promise<Answer> => {
		const outcome = await receiveDelivery(delivery, {
			secrets: [SECRET],
			events: ['*'],
			listening: false,
			passTestEvents: false,
			scope: 'wf',
			recordMessages: false,
			batch: true,
			store: async () => store,
		});
		if (outcome.kind === 'accepted') dispatcher.kick();
		return outcome;
	};
	const listener = await startListener({
		port: 0,
		host: '127.0.0.1',
		path: '/hook',
		receive,
	});
	return { listener, dispatcher, store, errors };
}

function post(url: string, i: number): Promise<{ status: number; ms: number }> {
	const { body, headers } = signedDelivery(
		SECRET,
		'order.created',
		{ client_id: 'cl_ada', order_id: `ord_${i}` },
		`dlv_${i}`,
		'wh_1',
	);
	const started = performance.now();
	return fetch(url, { method: 'POST', headers, body }).then(async (res) => {
		await res.arrayBuffer();
		return { status: res.status, ms: performance.now() - started };
	});
}

describe('the own-port trigger: listener, record, dispatch', () => {
	it('answers a burst at once and runs every delivery once, in few executions', async () => {
		const runs: string[][] = [];
		const { listener } = await ownPort(async (items) => {
			runs.push(items.map((i) => String((i as { order_id: string }).order_id)));
			await sleep(100); // an execution takes a while: deliveries meanwhile wait for the next
		});
		const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => post(listener.url, i)));
		expect(answers.every((a) => a.status === 200)).toBe(true);
		// Answering does not wait for any execution.
		expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(4000);
		await sleep(600);
		const carried = runs.flat();
		expect(carried.sort()).toEqual(Array.from({ length: 200 }, (_, i) => `ord_${i}`).sort());
		expect(runs.length).toBeLessThan(20);
		// A copy of a delivery already kept is answered and runs nothing.
		expect((await post(listener.url, 7)).status).toBe(200);
		await sleep(150);
		expect(runs.flat()).toHaveLength(200);
		await listener.close();
	});

	it('starts again what was kept when the process stopped before running it', async () => {
		const store = new MemoryStore();
		let crashed = false;
		const first = await ownPort(async () => {
			crashed = true;
			throw new Error('process killed'); // the execution never happened
		}, store);
		expect((await post(first.listener.url, 1)).status).toBe(200);
		await sleep(50);
		expect(crashed).toBe(true);
		expect(first.errors.map((e) => e.message)).toEqual(['process killed']);
		await first.listener.close();
		// The next start of the trigger runs it.
		const runs: object[][] = [];
		const second = await ownPort(async (items) => {
			runs.push(items);
		}, store);
		second.dispatcher.kick();
		await sleep(50);
		expect(runs.flat()).toEqual([
			expect.objectContaining({ order_id: 'ord_1', delivery_id: 'dlv_1' }),
		]);
		await second.listener.close();
	});
});
