/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling, never loaded by n8n */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { Redis } from 'ioredis';

import type { PostgresCredential } from '../../runtime/stores/postgres-options';
import { closeSharedPostgresStores } from '../../runtime/stores/postgres';
import { closeSharedRedisStores } from '../../runtime/stores/redis';
import { admin, apiCredential, sentTexts, useEmulator, writeInTurn } from '../helpers/emulator';
import type { TestWorkflow } from '../helpers/n8n';
import { WebhookHost } from '../helpers/webhook-host';
import { chain, scenarioNode, triggerNode } from '../helpers/workflows';
import { createTestDatabase, dropTestDatabase, queryTest } from '../helpers/postgres-db';

// The machine's Redis, in a database of this suite's own (emptied before it runs).
const REDIS = { host: '127.0.0.1', port: 6379, database: 7 };
const SECRET = ['whsec', 'redis'].join('_');
const orderStatus = readFileSync(
	path.join(__dirname, '../../examples/scenarios/order-status.json'),
	'utf8',
);

/** Trigger → Scenario with both nodes keeping their state in a shared store, as under queue mode. */
function sharedBot(kind: 'redis' | 'postgres'): TestWorkflow {
	const credential: Record<string, { id: string; name: string }> =
		kind === 'redis'
			? { messagingBotRedisApi: { id: 'r', name: 'R' } }
			: { messagingBotPostgresApi: { id: 'p', name: 'P' } };
	return chain([
		triggerNode(
			{ events: ['message.received'], stateStore: kind, options: {} },
			{
				webhookId: 'bot',
				credentials: { messagingBotWebhookApi: { id: 'w', name: 'W' }, ...credential },
			},
		),
		scenarioNode(
			{ operation: 'handleMessage', scenario: orderStatus, stateStore: kind },
			{ credentials: { messagingBotApi: { id: 'a', name: 'API' }, ...credential } },
		),
	]);
}

/** What each shared store needs here, and what it holds after: claims and records. */
type SharedStore = {
	kind: 'redis' | 'postgres';
	prepare(): Promise<object>;
	close(): Promise<void>;
	/** Whether a message's claim sits in its scenario's inbox, and a conversation's record exists. */
	holds(): Promise<{ inboxClaim: boolean; record: boolean }>;
};

let pg: PostgresCredential | undefined;
const STORES: SharedStore[] = [
	{
		kind: 'redis',
		async prepare() {
			const redis = new Redis({ host: REDIS.host, port: REDIS.port, db: REDIS.database });
			await redis.flushdb();
			await redis.quit();
			return { messagingBotRedisApi: REDIS };
		},
		close: closeSharedRedisStores,
		async holds() {
			const redis = new Redis({ host: REDIS.host, port: REDIS.port, db: REDIS.database });
			const keys = await redis.keys('messaging-bot:*');
			await redis.quit();
			return {
				inboxClaim: keys.some(
					(k) => k.startsWith('messaging-bot:{inbox:@') && k.includes(':claim:d:'),
				),
				record: keys.some((k) => k.includes(':record:')),
			};
		},
	},
	{
		// The machine's PostgreSQL, in a database of this suite's own (dropped after).
		kind: 'postgres',
		async prepare() {
			pg = await createTestDatabase('nodes');
			return { messagingBotPostgresApi: pg };
		},
		async close() {
			await closeSharedPostgresStores();
			await dropTestDatabase(pg);
		},
		async holds() {
			const credential = pg as PostgresCredential;
			const claims = await queryTest(
				credential,
				"SELECT 1 FROM messaging_bot.claims WHERE ns LIKE 'inbox:@%' AND id LIKE 'd:%'",
			);
			const records = await queryTest(credential, 'SELECT 1 FROM messaging_bot.records');
			return { inboxClaim: claims.length > 0, record: records.length > 0 };
		},
	},
];

describe.each(STORES)('State Store: $kind (queue mode)', (store) => {
	const emulator = useEmulator({ rateLimit: 100_000 });
	let storeCredential: object = {};
	const credentials = () => ({
		messagingBotApi: apiCredential(emulator()),
		messagingBotWebhookApi: { secret: SECRET },
		...storeCredential,
	});
	const bot = sharedBot(store.kind);
	const sent = async () => await sentTexts(emulator(), 'cl_ada');

	beforeAll(async () => {
		storeCredential = await store.prepare();
	});
	afterAll(async () => await store.close());

	/** One "n8n process": its own webhook server and its own store connections. */
	async function process(texts: string[]): Promise<WebhookHost> {
		const host = await new WebhookHost(bot, credentials()).start();
		const sub = await admin<{ id: string }>(emulator(), 'POST', '/subscriptions', {
			url: host.url,
			secret: SECRET,
			events: ['message.received'],
		});
		await writeInTurn(emulator(), () => host.idle(), texts);
		await admin(emulator(), 'DELETE', `/subscriptions/${sub.body.data.id}`);
		return host;
	}

	it('continues a conversation in another process and drops a delivery the first one took', async () => {
		const first = await process(['hi', 'where is my order']);
		await first.stop();
		await (store.kind === 'redis' ? closeSharedRedisStores() : closeSharedPostgresStores()); // the second process has connections of its own

		const second = await process(['ada@example.com']);
		expect(await sent()).toEqual([
			'Hi Ada! I can tell you where your order is. Type "order" to start.',
			'What email address did you use for the order?',
			'Thanks! And the order number? It is in the confirmation we sent to ada@example.com.',
		]);

		// The first process's delivery of "hi", redelivered to the second: 200, nothing runs.
		const deliveries = (
			await admin<Array<{ id: string; event: string }>>(emulator(), 'GET', '/deliveries')
		).body.data.filter((d) => d.event === 'message.received');
		const { request } = (
			await admin<{
				attempts: Array<{ request: { headers: Record<string, string>; body: string } }>;
			}>(emulator(), 'GET', `/deliveries/${deliveries[0].id}`)
		).body.data.attempts[0];
		const runs = second.executions.length;
		const res = await fetch(second.url, {
			method: 'POST',
			headers: request.headers,
			body: request.body,
		});
		expect(res.status).toBe(200);
		await second.idle();
		await second.stop();
		expect(second.executions).toHaveLength(runs);
		expect(await sent()).toHaveLength(3);

		// Both nodes' state is in the store; the message's claims sit in its scenario's inbox
		// (conversations belong to the scenario).
		expect(await store.holds()).toEqual({ inboxClaim: true, record: true });
	});
});
