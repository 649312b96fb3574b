/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- end-to-end tooling: runs a real n8n, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import {
	exampleWorkflows,
	keepingEveryExecution,
	prepareN8n,
	productionUrl,
	type Workflow,
} from '../../scripts/lib/demo-setup';
import { N8N_1_VERSION } from '../../scripts/lib/n8n-install';
import {
	freePort,
	runtimeLabel,
	setupOwner,
	startN8n,
	waitForWebhook,
	type N8nOptions,
	type RunningN8n,
} from '../../scripts/lib/n8n-process';
import { startEmulator, type RunningEmulator } from '../emulator';
import { admin } from '../helpers/emulator';
import { clientOf, until } from './conversation';
import {
	executions,
	redeliver,
	SECRET,
	settledExecutions,
	subscribe,
	tagsAfterOrder,
} from './core';

jest.setTimeout(300_000);

const example = (id: string) => exampleWorkflows().find((w) => w.id === id) as Workflow;

// The core cases on the newest n8n 1.x, on Node.js 22: the packed package installed as a
// community package, the example workflows as they are (Storage left at the file on this
// server), the emulator delivering signed webhooks to n8n's production URLs.
describe(`in a real n8n ${runtimeLabel(N8N_1_VERSION)}: the core cases`, () => {
	let emulator: RunningEmulator;
	let n8n: RunningN8n;
	let options: N8nOptions;
	const orders = keepingEveryExecution(example('mbTagOnOrder0001'));
	const bot = keepingEveryExecution(example('mbOrderStatusBot'));
	let ordersUrl: string;

	beforeAll(async () => {
		emulator = await startEmulator();
		options = {
			userFolder: mkdtempSync(path.join(tmpdir(), 'mb-n8n1-')),
			port: await freePort(),
			brokerPort: await freePort(),
			n8nVersion: N8N_1_VERSION,
		};
		prepareN8n(options, { baseUrl: emulator.baseUrl, apiKey: emulator.apiKey }, SECRET, [
			orders,
			bot,
		]);
		n8n = await startN8n(options);
		ordersUrl = productionUrl(n8n.url, orders);
		for (const [url, event] of [
			[ordersUrl, 'order.created'],
			[productionUrl(n8n.url, bot), 'message.received'],
		]) {
			await waitForWebhook(url);
			expect(await subscribe(emulator, url, [event])).toBe('delivered');
		}
	}, 900_000);

	afterAll(async () => {
		await n8n?.stop();
		await emulator?.close();
		if (options) rmSync(options.userFolder, { recursive: true, force: true });
	});

	it('loads every node of the package, with no load errors', async () => {
		const cookie = await setupOwner(n8n.url);
		const res = await fetch(`${n8n.url}/types/nodes.json`, { headers: { Cookie: cookie } });
		expect(res.status).toBe(200);
		const names = ((await res.json()) as Array<{ name: string }>).map((t) => t.name);
		expect(names).toEqual(
			expect.arrayContaining(
				['messagingBot', 'messagingBotTool', 'messagingBotTrigger', 'messagingBotPortTrigger']
					.concat(['messagingBotScenario'])
					.map((n) => `n8n-nodes-messaging-bot.${n}`),
			),
		);
		expect(n8n.log()).not.toMatch(/Failed to load package "n8n-nodes-messaging-bot"/);
	});

	it('marketer: order.created → Trigger → Update Tags puts "customer" on that client', async () => {
		expect(await tagsAfterOrder(emulator, 'cl_alan', 'ord_n8n1_1')).toContain('customer');
		expect(await settledExecutions(options.userFolder, orders.id)).toEqual([expect.objectContaining({ status: 'success', mode: 'webhook' })]);
	});

	it('the same delivery sent again starts one execution', async () => {
		const before = executions(options.userFolder, orders.id).length;
		const { body } = await admin<{ delivery_ids: string[] }>(emulator, 'POST', '/events', {
			event: 'order.created',
			data: { client_id: 'cl_katherine', order_id: 'ord_n8n1_2' },
		});
		await admin(emulator, 'POST', '/settle');
		expect(await redeliver(emulator, ordersUrl, body.data.delivery_ids[0])).toEqual([
			200, 200, 200, 200, 200,
		]);
		await new Promise((r) => setTimeout(r, 1_500));
		const runs = await until(
			() => executions(options.userFolder, orders.id),
			(r) => r.length >= before + 1,
		);
		expect(runs).toHaveLength(before + 1);
	});

	it('bot: holds an order-status conversation, every reply in order', async () => {
		const { write } = clientOf(() => emulator, 'bot_shop', 'cl_ada');
		await admin(emulator, 'POST', '/events', {
			event: 'order.updated',
			data: { client_id: 'cl_ada', order_id: 'ord_1001', status: 'shipped' },
		});
		expect(await write('hi', 1)).toEqual([
			'Hi Ada! I can tell you where your order is. Type "order" to start.',
		]);
		expect(await write('where is my order?', 1)).toEqual([
			'What email address did you use for the order?',
		]);
		expect(await write('ada@example.com', 1)).toEqual([
			'Thanks! And the order number? It is in the confirmation we sent to ada@example.com.',
		]);
		expect(await write('1001', 2)).toEqual([
			'Order 1001 has shipped. Tracking details are on their way to ada@example.com.',
			'Anything else? Type "order" for another order, or "no" to finish.',
		]);
	});
});
