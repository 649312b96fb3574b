/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- end-to-end tooling: runs a real n8n, never loaded by n8n */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import {
	API_CREDENTIAL_ID,
	prepareN8n,
	productionUrl,
	WEBHOOK_CREDENTIAL_ID,
	type Workflow,
} from '../../scripts/lib/demo-setup';
import {
	freePort,
	n8nCli,
	RESTARTABLE_ENV,
	startN8n,
	waitForWebhook,
	type N8nOptions,
	type RunningN8n,
} from '../../scripts/lib/n8n-process';
import { startEmulator, type RunningEmulator } from '../emulator';
import { admin } from '../helpers/emulator';
import { sleep } from './burst';
import { clientOf, until } from './conversation';

jest.setTimeout(900_000);

const SECRET = ['whsec', 'scope', 'test'].join('_');
const BOT_ID = 'mbScopeBot000001';
const COPY_ID = 'mbScopeBotCopy01';
const TICKER_ID = 'mbScopeTicker001';

/** Asks a name, nudges after 12 s of silence, then each answer shows the state it reached. */
const SCENARIO = JSON.stringify({
	id: 'scope-e2e',
	version: 1,
	start: 'ask',
	states: {
		ask: {
			messages: ['What is your name?'],
			after: { minutes: 0.2, target: 'nudge' },
			on: [{ match: { any: true }, target: 'thanks' }],
		},
		nudge: { messages: ['Still there?'], on: [{ match: { any: true }, target: 'thanks' }] },
		thanks: {
			messages: ['Thanks, {{message.text}}'],
			on: [{ match: { any: true }, target: 'more' }],
		},
		more: { messages: ['More: {{message.text}}'], on: [{ match: { any: true }, target: 'more' }] },
	},
});
const API = { messagingBotApi: { id: API_CREDENTIAL_ID, name: 'Messaging Bot API' } };

/** The bot: Trigger → Scenario, and no scheduled run of its own. */
function botWorkflow(): Workflow {
	return {
		id: BOT_ID,
		name: 'Scope bot',
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: 'f0000000-0000-4000-8000-000000000001',
				name: 'Client Writes',
				type: 'n8n-nodes-messaging-bot.messagingBotTrigger',
				typeVersion: 1,
				position: [0, 0],
				webhookId: 'messaging-bot-scope',
				parameters: { events: ['message.received'], options: {} },
				credentials: {
					messagingBotWebhookApi: { id: WEBHOOK_CREDENTIAL_ID, name: 'Messaging Bot Webhook' },
				},
			},
			{
				id: 'f0000000-0000-4000-8000-000000000002',
				name: 'Bot',
				type: 'n8n-nodes-messaging-bot.messagingBotScenario',
				typeVersion: 1,
				position: [260, 0],
				// Each message waits 2 s for earlier ones: the moment a kill strands it.
				parameters: {
					operation: 'handleMessage',
					scenario: SCENARIO,
					options: { reorderWindowSeconds: 2 },
				},
				credentials: API,
			},
		],
		connections: { 'Client Writes': { main: [[{ node: 'Bot', type: 'main', index: 0 }]] } },
	} as unknown as Workflow;
}

/** The ticker: a workflow of its own, Schedule Trigger every 2 s → Run Due Work. */
function tickerWorkflow(): Workflow {
	return {
		id: TICKER_ID,
		name: 'Scope ticker',
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: 'f0000000-0000-4000-8000-000000000003',
				name: 'Every 2 Seconds',
				type: 'n8n-nodes-base.scheduleTrigger',
				typeVersion: 1.2,
				position: [0, 0],
				parameters: { rule: { interval: [{ field: 'seconds', secondsInterval: 2 }] } },
			},
			{
				id: 'f0000000-0000-4000-8000-000000000004',
				name: 'Run Due Work',
				type: 'n8n-nodes-messaging-bot.messagingBotScenario',
				typeVersion: 1,
				position: [260, 0],
				parameters: { operation: 'fireTimers', scenario: SCENARIO, options: {} },
				credentials: API,
			},
		],
		connections: {
			'Every 2 Seconds': { main: [[{ node: 'Run Due Work', type: 'main', index: 0 }]] },
		},
	} as unknown as Workflow;
}

// A real n8n (regular mode, SQLite state store): the bot's workflow, a separate ticker workflow;
// then the bot's workflow exported and imported under a new id, and two copies published at once.
describe('conversations belong to the bot and the scenario, not to a workflow', () => {
	let emulator: RunningEmulator;
	let n8n: RunningN8n;
	let options: N8nOptions;
	const subscriptions = new Map<string, string>();
	const client = (id: string) => clientOf(() => emulator, 'bot_shop', id);

	async function subscribe(workflow: Workflow): Promise<void> {
		const url = productionUrl(n8n.url, workflow);
		await waitForWebhook(url);
		const { body } = await admin<{ subscription: { id: string } }>(
			emulator,
			'POST',
			'/subscriptions',
			{ url, secret: SECRET, events: ['message.received'] },
		);
		subscriptions.set(workflow.id, body.data.subscription.id);
	}

	async function unsubscribe(workflowId: string): Promise<void> {
		await admin(emulator, 'DELETE', `/subscriptions/${subscriptions.get(workflowId)}`);
		subscriptions.delete(workflowId);
	}

	/** Stops n8n, runs n8n CLI commands on its folder, starts it again. */
	async function withN8nStopped(work: () => void): Promise<void> {
		await n8n.stop();
		work();
		n8n = await startN8n(options);
	}

	beforeAll(async () => {
		emulator = await startEmulator();
		options = {
			userFolder: mkdtempSync(path.join(tmpdir(), 'mb-scope-')),
			port: await freePort(),
			brokerPort: await freePort(),
			env: RESTARTABLE_ENV,
		};
		prepareN8n(options, { baseUrl: emulator.baseUrl, apiKey: emulator.apiKey }, SECRET, [
			botWorkflow(),
			tickerWorkflow(),
		]);
		n8n = await startN8n(options);
		await subscribe(botWorkflow());
	}, 900_000);

	afterAll(async () => {
		await n8n?.stop();
		await emulator?.close();
		if (options && !process.env.MB_KEEP)
			rmSync(options.userFolder, { recursive: true, force: true });
	});

	it('a silence timer armed by the bot fires from the ticker workflow', async () => {
		const ada = client('cl_ada');
		expect(await ada.write('hi', 1)).toEqual(['What is your name?']);
		// Nothing in the bot's workflow runs timers: only the ticker can send this.
		const sent = await until(ada.sent, (s) => s.length >= 2, 30_000);
		expect(sent).toEqual(['What is your name?', 'Still there?']);
	});

	it('a message stranded by a kill is applied by the ticker', async () => {
		const linus = client('cl_linus');
		const { body } = await admin<{ delivery_ids: string[] }>(emulator, 'POST', '/inbound', {
			bot_id: 'bot_shop',
			client_id: 'cl_linus',
			text: 'hi',
		});
		// Acknowledged: kept in the inbox, its execution waiting out the reorder window.
		await until(
			async () =>
				(
					await admin<{ state: string }>(
						emulator,
						'GET',
						`/deliveries/${body.data.delivery_ids[0]}`,
					)
				).body.data.state,
			(state) => state === 'delivered',
			10_000,
		);
		await n8n.kill();
		expect(await linus.sent()).toEqual([]);
		n8n = await startN8n(options);
		// The service had its answer and sends nothing again; the ticker applies it (after 15 s).
		const sent = await until(linus.sent, (s) => s.length >= 1, 60_000);
		expect(sent).toEqual(['What is your name?']);
	});

	it('a conversation in progress continues in the bot workflow imported under a new id', async () => {
		const grace = client('cl_grace');
		expect(await grace.write('hi', 1)).toEqual(['What is your name?']);
		expect(await grace.write('Grace', 1)).toEqual(['Thanks, Grace']);
		let copy: Workflow | undefined;
		await withN8nStopped(() => {
			copy = exportedCopy();
			const file = path.join(options.userFolder, 'copy.json');
			writeFileSync(file, JSON.stringify([copy]));
			n8nCli(options, ['import:workflow', `--input=${file}`]);
			n8nCli(options, ['unpublish:workflow', `--id=${BOT_ID}`]);
			n8nCli(options, ['publish:workflow', `--id=${COPY_ID}`]);
		});
		await unsubscribe(BOT_ID);
		await subscribe(copy as Workflow);
		expect(await grace.write('again', 1)).toEqual(['More: again']);
		expect(await grace.sent()).toEqual(['What is your name?', 'Thanks, Grace', 'More: again']);
	});

	it('two published copies of the bot workflow answer each message once', async () => {
		await withN8nStopped(() => n8nCli(options, ['publish:workflow', `--id=${BOT_ID}`]));
		await subscribe(botWorkflow());
		expect(subscriptions.size).toBe(2);
		const alan = client('cl_alan');
		for (const text of ['hi', 'Alan', 'one', 'two']) {
			await alan.write(text, 1);
			// Time for a second answer, if one were coming.
			await sleep(3000);
		}
		expect(await alan.sent()).toEqual([
			'What is your name?',
			'Thanks, Alan',
			'More: one',
			'More: two',
		]);
		// Each message went to both copies: one kept it and started, the other found it kept.
		const answers = await triggerAnswers('cl_alan');
		expect(answers.size).toBe(4);
		for (const answer of answers.values())
			expect(answer.sort()).toEqual(['already received', 'started']);
	});

	/** How the triggers answered each delivery of the client's messages, by message id. */
	async function triggerAnswers(clientId: string): Promise<Map<string, string[]>> {
		type Delivery = {
			id: string;
			data: { client_id: string; message_id: string };
			attempts?: Array<{ response_body?: string }>;
		};
		const list = (await admin<Delivery[]>(emulator, 'GET', '/deliveries?event=message.received'))
			.body.data;
		const answers = new Map<string, string[]>();
		for (const summary of list.filter((d) => d.data.client_id === clientId)) {
			const d = (await admin<Delivery>(emulator, 'GET', `/deliveries/${summary.id}`)).body.data;
			const body = JSON.parse(d.attempts?.at(-1)?.response_body ?? '{}') as {
				started?: boolean;
				reason?: string;
			};
			const answer = body.started ? 'started' : (body.reason ?? 'no answer');
			answers.set(d.data.message_id, [...(answers.get(d.data.message_id) ?? []), answer]);
		}
		return answers;
	}

	/** The bot's workflow as `n8n export:workflow` writes it, with a new id and webhook path. */
	function exportedCopy(): Workflow {
		const file = path.join(options.userFolder, 'exported.json');
		n8nCli(options, ['export:workflow', `--id=${BOT_ID}`, `--output=${file}`]);
		const [exported] = JSON.parse(readFileSync(file, 'utf8')) as Array<
			Workflow & Record<string, unknown>
		>;
		const { versionId, activeVersionId, active, ...rest } = exported;
		void [versionId, activeVersionId, active];
		return {
			...rest,
			id: COPY_ID,
			name: 'Scope bot (moved)',
			nodes: exported.nodes.map((node) =>
				node.webhookId ? { ...node, webhookId: 'messaging-bot-scope-moved' } : node,
			),
		};
	}
});
