/* eslint-disable @n8n/community-nodes/no-restricted-globals -- end-to-end tooling: runs a real n8n, never loaded by n8n */
import {
	exampleWorkflows,
	keepingEveryExecution,
	productionUrl,
	type Workflow,
} from '../../scripts/lib/demo-setup';
import { N8N_VERSION } from '../../scripts/lib/n8n-install';
import {
	runtimeLabel,
	setupOwner,
	startN8n,
	waitForWebhook,
	type N8nOptions,
	type RunningN8n,
} from '../../scripts/lib/n8n-process';
import type { RunningEmulator } from '../emulator';
import { signedDelivery } from '../helpers/deliveries';
import { admin } from '../helpers/emulator';
import { clientOf } from './conversation';
import { executions, SECRET, settledExecutions, tagsAfterOrder } from './core';
import { executionsAfterRedelivery, startCoreN8n, type CoreN8n } from './core-n8n';
import { ADA, play, shipAdasOrder } from './order-status';
import { BROKEN, callsBot, SLOW } from './workflow-steps';

jest.setTimeout(300_000);

// A real n8n 2.x with the packed package installed as a community package, the example
// workflows imported and published, and the emulator delivering signed webhooks to n8n's
// production URLs.
describe(`in a real n8n ${runtimeLabel(N8N_VERSION)}`, () => {
	const orders = exampleWorkflows().find((w) => w.id === 'mbTagOnOrder0001') as Workflow;
	const bot = exampleWorkflows().find((w) => w.id === 'mbOrderStatusBot') as Workflow;
	let core: CoreN8n;
	let emulator: RunningEmulator;
	let n8n: RunningN8n;
	let options: N8nOptions;
	let ordersUrl: string;
	let botUrl: string;

	// Packing, four n8n CLI runs (import, publish) and a first start: minutes on two busy cores.
	beforeAll(async () => {
		core = await startCoreN8n(
			[...exampleWorkflows().map(keepingEveryExecution), BROKEN, SLOW, callsBot()],
			orders,
			bot,
		);
		({ emulator, n8n, options, ordersUrl, botUrl } = core);
	}, 900_000);

	afterAll(async () => {
		await core?.stop();
	});

	it('marketer: order.created → Trigger → Update Tags puts "customer" on that client', async () => {
		expect(await tagsAfterOrder(emulator, 'cl_alan', 'ord_e2e_1')).toContain('customer');
		expect(await settledExecutions(options.userFolder, orders.id)).toEqual([
			expect.objectContaining({ status: 'success', mode: 'webhook' }),
		]);
	});

	it('a forged signature gets 401 and no execution', async () => {
		const before = executions(options.userFolder, orders.id).length;
		const forged = signedDelivery(
			'not-the-secret',
			'order.created',
			{ client_id: 'cl_linus' },
			'dlv_forged',
			'wh_forged',
		);
		const res = await fetch(ordersUrl, { method: 'POST', ...forged });
		expect(res.status).toBe(401);
		await new Promise((r) => setTimeout(r, 1_000));
		expect(executions(options.userFolder, orders.id)).toHaveLength(before);
		expect(
			(await admin<{ tags: string[] }>(emulator, 'GET', '/clients/cl_linus')).body.data.tags,
		).not.toContain('customer');
	});

	it('the same delivery sent again starts one execution', async () => {
		const { answers, gained } = await executionsAfterRedelivery(core, orders.id, 'ord_e2e_2');
		expect(answers).toEqual([200, 200, 200, 200, 200]);
		expect(gained).toBe(1);
	});

	it('loads the Messaging Bot node as an AI-agent tool, with no load errors', async () => {
		const cookie = await setupOwner(n8n.url);
		const res = await fetch(`${n8n.url}/types/nodes.json`, { headers: { Cookie: cookie } });
		expect(res.status).toBe(200);
		const types = (await res.json()) as Array<{ name: string }>;
		const names = types.map((t) => t.name);
		expect(names).toEqual(
			expect.arrayContaining([
				'n8n-nodes-messaging-bot.messagingBot',
				'n8n-nodes-messaging-bot.messagingBotTool',
				'n8n-nodes-messaging-bot.messagingBotTrigger',
			]),
		);
		expect(n8n.log()).not.toMatch(
			/Failed to load package "n8n-nodes-messaging-bot"|n8n-nodes-messaging-bot.*(error|Error)/,
		);
	});

	describe('bot: message.received → Trigger → Scenario', () => {
		const { sent, write } = clientOf(() => emulator, 'bot_shop', 'cl_ada');

		it('holds an order-status conversation, every reply in the emulator, in order', async () => {
			await shipAdasOrder(emulator);
			await play(write, ADA.hi, ADA.asks, ADA.notAnEmail, ADA.email);
		});

		it('continues where it was after n8n is stopped and started', async () => {
			await n8n.stop();
			n8n = await startN8n(options);
			core.n8n = n8n;
			await waitForWebhook(botUrl);
			await play(write, ADA.number);
			await new Promise((r) => setTimeout(r, 1_000));
			const all = await sent();
			expect(new Set(all).size).toBe(all.length);
			const runs = executions(options.userFolder, bot.id);
			expect(runs.filter((r) => r.mode === 'webhook')).toHaveLength(5);
			expect(runs.every((r) => r.status === 'success')).toBe(true);
		});

		it('answers from the client\'s orders: "not found" for a number the client lacks', async () => {
			expect(await write('order', 1)).toEqual([
				'Thanks! And the order number? It is in the confirmation we sent to ada@example.com.',
			]);
			expect(await write('4242', 2)).toEqual([
				'I could not find order 4242 among your orders.',
				'Which order number should I look for? Type "human" to talk to a person.',
			]);
		});
	});

	describe('the demo: two bots, each answered by its own workflow only', () => {
		beforeAll(async () => {
			// As npm start: both example bots subscribed to every message of the account.
			const faqUrl = productionUrl(
				n8n.url,
				exampleWorkflows().find((w) => w.id === 'mbFaqBot00000001') as Workflow,
			);
			await waitForWebhook(faqUrl);
			await admin(emulator, 'POST', '/subscriptions', {
				url: faqUrl,
				secret: SECRET,
				events: ['message.received'],
			});
		}, 120_000);

		it('"hi" to each bot is answered once, by that bot', async () => {
			const replies = async (clientId: string) =>
				(
					await admin<Array<{ bot_id: string; text: string }>>(
						emulator,
						'GET',
						`/sent-messages?client_id=${clientId}`,
					)
				).body.data.map((m) => [m.bot_id, m.text]);
			await clientOf(() => emulator, 'bot_support', 'cl_katherine').write('hi', 1);
			await clientOf(() => emulator, 'bot_shop', 'cl_linus').write('hi', 1);
			// Time for a second answer, had the other workflow started too.
			await new Promise((r) => setTimeout(r, 5_000));
			expect(await replies('cl_katherine')).toEqual([
				[
					'bot_support',
					'Hi Katherine! Ask me about delivery, returns or payment. Type "human" to talk to a person.',
				],
			]);
			expect(await replies('cl_linus')).toEqual([
				['bot_shop', 'Hi Linus! I can tell you where your order is. Type "order" to start.'],
			]);
		});
	});

	describe('bot: a scenario calling sub-workflows', () => {
		const { write } = clientOf(() => emulator, 'bot_shop', 'cl_grace');
		let callsUrl: string;

		beforeAll(async () => {
			// Only this bot answers now: the order-status bot's subscription is removed.
			const subs = await admin<Array<{ id: string }>>(emulator, 'GET', '/subscriptions');
			for (const sub of subs.body.data) await admin(emulator, 'DELETE', `/subscriptions/${sub.id}`);
			callsUrl = productionUrl(n8n.url, callsBot());
			await waitForWebhook(callsUrl);
			await admin(emulator, 'POST', '/subscriptions', {
				url: callsUrl,
				secret: SECRET,
				events: ['message.received'],
			});
		}, 120_000);

		it('answers from the example FAQ sub-workflow, and says when it has nothing', async () => {
			expect(await write('hi', 1)).toEqual(['Ask.']);
			expect(await write('when do you deliver?', 1)).toEqual([
				'We deliver in 2 to 3 working days; you get a tracking link by email.',
			]);
			expect(await write('where do you park?', 1)).toEqual(['No answer.']);
		});

		it('a failing sub-workflow takes the failure branch, a slow one the timeout branch', async () => {
			expect(await write('fail', 1)).toEqual(['Lookup failed.']);
			const started = Date.now();
			expect(await write('slow', 1)).toEqual(['Lookup timed out.']);
			// The time limit (3 s) answered, not the sub-workflow's end (8 s).
			expect(Date.now() - started).toBeLessThan(7_500);
			expect(await write('can I pay by card?', 1)).toEqual([
				'We take cards, PayPal and bank transfer.',
			]);
		});
	});
});
