/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling: temporary files and waits, never loaded by n8n */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import type { IDataObject, INode } from 'n8n-workflow';

import { closeSharedSqliteStores } from '../../runtime/stores/sqlite';
import { admin, apiCredential, sentTexts, useEmulator, writeInTurn } from '../helpers/emulator';
import { outputOf, runWorkflow, type TestWorkflow } from '../helpers/n8n';
import { WebhookHost } from '../helpers/webhook-host';
import { chain, itemsInto, scenarioNode, triggerNode } from '../helpers/workflows';

const dir = mkdtempSync(path.join(tmpdir(), 'mb-scenario-'));
afterAll(async () => {
	await closeSharedSqliteStores();
	rmSync(dir, { recursive: true, force: true });
});
let files = 0;
const stateFile = () => path.join(dir, `state${++files}.sqlite`);
const orderStatus = readFileSync(
	path.join(__dirname, '../../examples/scenarios/order-status.json'),
	'utf8',
);
const SECRET = ['whsec', 'scenario'].join('_');

/** Trigger → Scenario, both keeping their state in the file at `statePath`. */
function triggerIntoScenario(scenario: string, statePath: string): TestWorkflow {
	return chain([
		triggerNode({ events: ['message.received'], options: { statePath } }, { webhookId: 'bot' }),
		scenarioNode({ operation: 'handleMessage', scenario, options: { statePath } }),
	]);
}

function itemsWorkflow(items: IDataObject[], parameters: INode['parameters']): TestWorkflow {
	return itemsInto(items, scenarioNode(parameters));
}

describe('Messaging Bot Scenario node', () => {
	const emulator = useEmulator({ rateLimit: 100_000 });
	const credentials = () => ({
		messagingBotApi: apiCredential(emulator()),
		messagingBotWebhookApi: { secret: SECRET },
	});
	const sent = async (clientId: string) => await sentTexts(emulator(), clientId);
	beforeEach(async () => {
		await admin(emulator(), 'POST', '/reset');
	});

	it('trigger item → scenario → replies recorded by the emulator, in order; a hand-off goes to "Needs a Human"', async () => {
		await admin(emulator(), 'POST', '/events', {
			event: 'order.updated',
			data: { client_id: 'cl_ada', order_id: 'ord_1001', status: 'shipped' },
		});
		const host = await new WebhookHost(
			triggerIntoScenario(orderStatus, stateFile()),
			credentials(),
		).start();
		await admin(emulator(), 'POST', '/subscriptions', {
			url: host.url,
			secret: SECRET,
			events: ['message.received'],
		});
		await writeInTurn(emulator(), () => host.idle(), [
			'hi',
			'where is my order',
			'ada@example.com',
			'1001',
			'human',
		]);
		await host.stop();
		expect(await sent('cl_ada')).toEqual([
			'Hi Ada! I can tell you where your order is. Type "order" to start.',
			'What email address did you use for the order?',
			'Thanks! And the order number? It is in the confirmation we sent to ada@example.com.',
			'Order 1001 has shipped. Tracking details are on their way to ada@example.com.',
			'Anything else? Type "order" for another order, or "no" to finish.',
			'I am passing you to a colleague, who will answer here shortly.',
		]);
		const handled = host.executions.map(
			(e) => e.run.data.resultData.runData.Scenario[0].data?.main[0] ?? [],
		);
		const human = host.executions.map(
			(e) => e.run.data.resultData.runData.Scenario[0].data?.main[1] ?? [],
		);
		expect(handled.slice(0, 4).map((items) => items[0]?.json.state)).toEqual([
			'welcome',
			'ask_email',
			'ask_number',
			'status',
		]);
		expect(handled[2][0].json.vars).toEqual({ email: 'ada@example.com' });
		expect(human[4][0].json).toMatchObject({
			status: 'handled',
			handed_off: true,
			client_id: 'cl_ada',
			text: 'human',
		});
		expect(
			(await admin<{ tags: string[] }>(emulator(), 'GET', '/clients/cl_ada')).body.data.tags,
		).toContain('needs-human');
	});

	it('never replies twice to a message delivered twice', async () => {
		const statePath = stateFile();
		const message = {
			event: 'message.received',
			message_id: 'msg_dup',
			client_id: 'cl_grace',
			bot_id: 'bot_shop',
			text: 'hi',
		};
		await runWorkflow(
			itemsWorkflow([message], {
				operation: 'handleMessage',
				scenario: orderStatus,
				options: { statePath },
			}),
			credentials(),
		);
		const again = await runWorkflow(
			itemsWorkflow([message, message], {
				operation: 'handleMessage',
				scenario: orderStatus,
				options: { statePath },
			}),
			credentials(),
		);
		expect(outputOf(again, 'Scenario').map((i) => i.json.status)).toEqual([
			'duplicate',
			'duplicate',
		]);
		expect(await sent('cl_grace')).toEqual([
			'Hi Grace! I can tell you where your order is. Type "order" to start.',
		]);
	});

	it('shows every problem of an invalid scenario with its place, one per line', async () => {
		const broken = JSON.parse(orderStatus) as {
			states: Record<string, { on?: Array<{ target?: string }> }>;
			start: string;
		};
		broken.start = 'welcom';
		(broken.states.welcome.on as Array<{ target?: string }>)[0].target = 'ask_emial';
		const run = await runWorkflow(
			itemsWorkflow([{ message_id: 'm', client_id: 'cl_ada', bot_id: 'bot_shop', text: 'hi' }], {
				operation: 'handleMessage',
				scenario: JSON.stringify(broken),
				options: { statePath: stateFile() },
			}),
			credentials(),
		);
		const error = run.data.resultData.error;
		expect(error?.message).toBe('Scenario has 2 problems');
		expect(error?.description).toMatch(/^• "start": /m);
		expect(error?.description).toMatch(/^• "target" of the first choice of state welcome: /m);
		expect(await sent('cl_ada')).toEqual([]);
	});

	it('fires a silence timer from the "Fire Due Timers" operation', async () => {
		const statePath = stateFile();
		const scenario = JSON.stringify({
			id: 'nudge',
			version: 1,
			start: 'ask',
			states: {
				ask: {
					messages: ['What is your name?'],
					after: { minutes: 0.01, send: 'Still there?' },
					on: [{ match: { any: true }, target: 'done' }],
				},
				done: { messages: ['Thanks!'], end: true },
			},
		});
		await runWorkflow(
			itemsWorkflow(
				[{ message_id: 'm1', client_id: 'cl_alan', bot_id: 'bot_shop', text: 'hello' }],
				{ operation: 'handleMessage', scenario, options: { statePath } },
			),
			credentials(),
		);
		const early = await runWorkflow(
			itemsWorkflow([{}], { operation: 'fireTimers', scenario, options: { statePath } }),
			credentials(),
		);
		// Nothing due yet: only the run's summary, which names the scenario it looked at.
		expect(outputOf(early, 'Scenario').map((i) => i.json)).toEqual([
			expect.objectContaining({ status: 'checked', scenario: 'nudge', conversations: 0 }),
		]);
		await sleep(900);
		const fired = await runWorkflow(
			itemsWorkflow([{}], { operation: 'fireTimers', scenario, options: { statePath } }),
			credentials(),
		);
		expect(outputOf(fired, 'Scenario').map((i) => i.json.sent ?? i.json.conversations)).toEqual([
			['Still there?'],
			1,
		]);
		expect(await sent('cl_alan')).toEqual(['What is your name?', 'Still there?']);
	});

	it('sends a timer that hands the client to a person to "Needs a Human"', async () => {
		const statePath = stateFile();
		const scenario = JSON.stringify({
			id: 'escalate',
			version: 1,
			start: 'ask',
			states: {
				ask: {
					messages: ['What is the problem?'],
					after: { minutes: 0.01, target: 'human' },
					on: [{ match: { any: true }, target: 'ask' }],
				},
				human: { messages: ['A colleague will answer.'], actions: [{ handoff: true }] },
			},
		});
		await runWorkflow(
			itemsWorkflow(
				[{ message_id: 'e1', client_id: 'cl_grace', bot_id: 'bot_shop', text: 'hello' }],
				{ operation: 'handleMessage', scenario, options: { statePath } },
			),
			credentials(),
		);
		await sleep(900);
		const fired = await runWorkflow(
			itemsWorkflow([{}], { operation: 'fireTimers', scenario, options: { statePath } }),
			credentials(),
		);
		const outputs = fired.data.resultData.runData.Scenario[0].data?.main;
		expect(outputs?.[0]?.map((i) => i.json.status)).toEqual(['checked']);
		expect(outputs?.[1]?.map((i) => i.json)).toEqual([
			expect.objectContaining({
				client_id: 'cl_grace',
				state: 'human',
				handed_off: true,
				sent: ['A colleague will answer.'],
			}),
		]);
	});

	it('releases a handed-off client to the bot', async () => {
		const statePath = stateFile();
		const feed = (id: string, text: string) =>
			itemsWorkflow([{ message_id: id, client_id: 'cl_linus', bot_id: 'bot_shop', text }], {
				operation: 'handleMessage',
				scenario: orderStatus,
				options: { statePath },
			});
		await runWorkflow(feed('m1', 'hi'), credentials());
		await runWorkflow(feed('m2', 'human'), credentials());
		const silenced = await runWorkflow(feed('m3', 'anyone?'), credentials());
		expect(silenced.data.resultData.runData.Scenario[0].data?.main[1]?.[0].json.status).toBe(
			'silenced',
		);
		const released = await runWorkflow(
			itemsWorkflow([{ bot_id: 'bot_shop', client_id: 'cl_linus' }], {
				operation: 'release',
				scenario: orderStatus,
				botId: '={{ $json.bot_id }}',
				clientId: '={{ $json.client_id }}',
				options: { statePath },
			}),
			credentials(),
		);
		expect(outputOf(released, 'Scenario')[0].json.released).toBe(true);
	});
});
