/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- end-to-end tooling: runs a real n8n, never loaded by n8n */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Redis } from 'ioredis';

import {
	exampleWorkflows,
	prepareN8n,
	productionUrl,
	type Workflow,
} from '../../scripts/lib/demo-setup';
import {
	freePort,
	startN8n,
	waitForWebhook,
	type N8nOptions,
	type RunningN8n,
} from '../../scripts/lib/n8n-process';
import { startEmulator, type RunningEmulator } from '../emulator';
import { admin } from '../helpers/emulator';
import { clientOf } from './conversation';

jest.setTimeout(300_000);

const SECRET = ['whsec', 'queue', 'mode'].join('_');
// The machine's PostgreSQL (trust auth on loopback) and Redis: what n8n's queue mode runs on.
const PG = { host: '127.0.0.1', port: '5432', user: 'postgres' };
const STATE_DB = 8;
const REDIS_CREDENTIAL_ID = 'mbRedisState0001';

function psql(sql: string, database = 'postgres'): string {
	return execFileSync(
		'psql',
		['-h', PG.host, '-p', PG.port, '-U', PG.user, '-d', database, '-tAc', sql],
		{ encoding: 'utf8' },
	).trim();
}

/** The example bot, with both Messaging Bot nodes keeping their state in Redis. */
function redisBot(): Workflow {
	const bot = structuredClone(
		exampleWorkflows().find((w) => w.id === 'mbOrderStatusBot') as Workflow,
	);
	for (const node of bot.nodes) {
		if (!node.type.startsWith('n8n-nodes-messaging-bot.')) continue;
		node.parameters.stateStore = 'redis';
		(node as { credentials?: Record<string, unknown> }).credentials = {
			...(node as { credentials?: Record<string, unknown> }).credentials,
			messagingBotRedisApi: { id: REDIS_CREDENTIAL_ID, name: 'Messaging Bot Redis' },
		};
	}
	return bot;
}

// n8n in queue mode: a main process that receives the webhooks and two workers that run the
// executions, on PostgreSQL and Redis. The trigger's delivery IDs are taken in the main process,
// the conversation is stepped in whichever worker gets each execution: only a shared store
// keeps the conversation whole.
describe('in a real n8n in queue mode (main + 2 workers, PostgreSQL, Redis)', () => {
	let emulator: RunningEmulator;
	const processes: RunningN8n[] = [];
	let main: N8nOptions;
	let bot: Workflow;
	let botUrl: string;
	const database = `mb_e2e_${process.pid}_${Date.now()}`;
	const userFolder = mkdtempSync(path.join(tmpdir(), 'mb-queue-'));

	beforeAll(async () => {
		emulator = await startEmulator();
		psql(`CREATE DATABASE ${database}`);
		const state = new Redis({ host: '127.0.0.1', port: 6379, db: STATE_DB });
		await state.flushdb();
		await state.quit();
		const env = {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: PG.host,
			DB_POSTGRESDB_PORT: PG.port,
			DB_POSTGRESDB_DATABASE: database,
			DB_POSTGRESDB_USER: PG.user,
			DB_POSTGRESDB_PASSWORD: '',
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: '6379',
			QUEUE_BULL_PREFIX: database,
		};
		main = { userFolder, port: await freePort(), brokerPort: await freePort(), env };
		bot = redisBot();
		prepareN8n(
			main,
			{ baseUrl: emulator.baseUrl, apiKey: emulator.apiKey },
			SECRET,
			[bot],
			[
				{
					id: REDIS_CREDENTIAL_ID,
					name: 'Messaging Bot Redis',
					type: 'messagingBotRedisApi',
					data: { host: '127.0.0.1', port: 6379, database: STATE_DB, user: '', password: '' },
				},
			],
		);
		processes.push(await startN8n(main));
		for (let i = 0; i < 2; i++) {
			const port = await freePort();
			const worker = {
				userFolder,
				port,
				brokerPort: await freePort(),
				env: { ...env, QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(port) },
			};
			processes.push(await startN8n(worker, 180_000, 'worker'));
		}
		botUrl = productionUrl(processes[0].url, bot);
		await waitForWebhook(botUrl);
		const saved = await admin<{ test_delivery: { state: string } }>(
			emulator,
			'POST',
			'/subscriptions',
			{ url: botUrl, secret: SECRET, events: ['message.received'] },
		);
		expect(saved.body.data.test_delivery.state).toBe('delivered');
	}, 900_000);

	afterAll(async () => {
		for (const p of processes.reverse()) await p.stop();
		await emulator?.close();
		try {
			psql(`DROP DATABASE IF EXISTS ${database}`);
		} catch {
			// Left for the machine's next reset; the name says whose it was.
		}
		rmSync(userFolder, { recursive: true, force: true });
	});

	const { sent, write } = clientOf(() => emulator, 'bot_shop', 'cl_grace');

	it('holds a whole conversation across the workers, every reply once and in order', async () => {
		expect(await write('hi', 1)).toEqual([
			'Hi Grace! I can tell you where your order is. Type "order" to start.',
		]);
		expect(await write('where is my order?', 1)).toEqual([
			'What email address did you use for the order?',
		]);
		expect(await write('grace@example.com', 1)).toEqual([
			'Thanks! And the order number? It is in the confirmation we sent to grace@example.com.',
		]);
		expect(await write('2002', 2)).toEqual([
			'Order 2002 has shipped. Tracking details are on their way to grace@example.com.',
			'Anything else? Type "order" for another order, or "no" to finish.',
		]);
		await new Promise((r) => setTimeout(r, 1_000));
		expect(await sent()).toHaveLength(5);
		const runs = psql(
			`SELECT status || ':' || mode FROM execution_entity WHERE "workflowId" = '${bot.id}' AND mode = 'webhook' ORDER BY id`,
			database,
		).split('\n');
		// (The Schedule Trigger's "fire due timers" runs are the workflow's other executions.)
		expect(runs).toEqual(Array(4).fill('success:webhook'));
		// The state is in Redis, not in a file one machine's processes happen to share.
		const state = new Redis({ host: '127.0.0.1', port: 6379, db: STATE_DB });
		const conversation = await state.hget(
			`messaging-bot:{scenario:${bot.id}}:record:bot_shop:cl_grace`,
			'value',
		);
		const claims = await state.keys(`messaging-bot:{delivery:${bot.id}}:claim:*`);
		await state.quit();
		expect(JSON.parse(conversation ?? '{}')).toMatchObject({ snapshot: { value: 'status' } });
		expect(claims.length).toBeGreaterThanOrEqual(4);
	});

	it('drops a redelivery in the main process: 200, no execution', async () => {
		const [first] = (
			await admin<Array<{ id: string }>>(emulator, 'GET', '/deliveries?event=message.received')
		).body.data;
		const { request } = (
			await admin<{
				attempts: Array<{ request: { headers: Record<string, string>; body: string } }>;
			}>(emulator, 'GET', `/deliveries/${first.id}`)
		).body.data.attempts[0];
		const res = await fetch(botUrl, {
			method: 'POST',
			headers: request.headers,
			body: request.body,
		});
		expect(res.status).toBe(200);
		await new Promise((r) => setTimeout(r, 2_000));
		const count = psql(
			`SELECT count(*) FROM execution_entity WHERE "workflowId" = '${bot.id}' AND mode = 'webhook'`,
			database,
		);
		expect(count).toBe('4');
		expect(await sent()).toHaveLength(5);
	});
});
