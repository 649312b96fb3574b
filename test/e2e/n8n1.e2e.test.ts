import {
	exampleWorkflows,
	keepingEveryExecution,
	type Workflow,
} from '../../scripts/lib/demo-setup';
import { N8N_1_VERSION } from '../../scripts/lib/n8n-install';
import { runtimeLabel, setupOwner, type RunningN8n } from '../../scripts/lib/n8n-process';
import type { RunningEmulator } from '../emulator';
import { clientOf } from './conversation';
import { settledExecutions, tagsAfterOrder } from './core';
import { executionsAfterRedelivery, startCoreN8n, type CoreN8n } from './core-n8n';
import { ADA, play, shipAdasOrder } from './order-status';

jest.setTimeout(300_000);

const example = (id: string) => exampleWorkflows().find((w) => w.id === id) as Workflow;

// The core cases on the newest n8n 1.x, on Node.js 22: the packed package installed as a
// community package, the example workflows as they are (Storage left at the file on this
// server), the emulator delivering signed webhooks to n8n's production URLs.
describe(`in a real n8n ${runtimeLabel(N8N_1_VERSION)}: the core cases`, () => {
	const orders = keepingEveryExecution(example('mbTagOnOrder0001'));
	const bot = keepingEveryExecution(example('mbOrderStatusBot'));
	let core: CoreN8n;
	let emulator: RunningEmulator;
	let n8n: RunningN8n;

	beforeAll(async () => {
		core = await startCoreN8n([orders, bot], orders, bot, N8N_1_VERSION);
		({ emulator, n8n } = core);
	}, 900_000);

	afterAll(async () => {
		await core?.stop();
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
		expect(await settledExecutions(core.options.userFolder, orders.id)).toEqual([
			expect.objectContaining({ status: 'success', mode: 'webhook' }),
		]);
	});

	it('the same delivery sent again starts one execution', async () => {
		const { answers, gained } = await executionsAfterRedelivery(core, orders.id, 'ord_n8n1_2');
		expect(answers).toEqual([200, 200, 200, 200, 200]);
		expect(gained).toBe(1);
	});

	it('bot: holds an order-status conversation, every reply in order', async () => {
		const { write } = clientOf(() => emulator, 'bot_shop', 'cl_ada');
		await shipAdasOrder(emulator);
		await play(write, ADA.hi, ADA.asks, ADA.email, ADA.number);
	});
});
