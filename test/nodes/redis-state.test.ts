/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling, never loaded by n8n */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { Redis } from 'ioredis';
import { NodeConnectionTypes } from 'n8n-workflow';

import { closeSharedRedisStores } from '../../runtime/stores/redis';
import { admin, sentTexts, useEmulator } from '../helpers/emulator';
import type { TestWorkflow } from '../helpers/n8n';
import { WebhookHost } from '../helpers/webhook-host';

// The machine's Redis, in a database of this suite's own (emptied before it runs).
const REDIS = { host: '127.0.0.1', port: 6379, database: 7 };
const SECRET = ['whsec', 'redis'].join('_');
const orderStatus = readFileSync(
	path.join(__dirname, '../../examples/scenarios/order-status.json'),
	'utf8',
);

/** Trigger → Scenario with both nodes keeping their state in Redis, as under queue mode. */
const redisBot: TestWorkflow = {
	nodes: [
		{
			id: 't',
			name: 'Trigger',
			type: 'n8n-nodes-messaging-bot.messagingBotTrigger',
			typeVersion: 1,
			position: [0, 0],
			webhookId: 'bot',
			parameters: { events: ['message.received'], stateStore: 'redis', options: {} },
			credentials: {
				messagingBotWebhookApi: { id: 'w', name: 'W' },
				messagingBotRedisApi: { id: 'r', name: 'R' },
			},
		},
		{
			id: 's',
			name: 'Scenario',
			type: 'n8n-nodes-messaging-bot.messagingBotScenario',
			typeVersion: 1,
			position: [200, 0],
			parameters: { operation: 'handleMessage', scenario: orderStatus, stateStore: 'redis' },
			credentials: {
				messagingBotApi: { id: 'a', name: 'API' },
				messagingBotRedisApi: { id: 'r', name: 'R' },
			},
		},
	],
	connections: {
		Trigger: { main: [[{ node: 'Scenario', type: NodeConnectionTypes.Main, index: 0 }]] },
	},
};

describe('State Store: Redis (queue mode)', () => {
	const emulator = useEmulator({ rateLimit: 100_000 });
	const credentials = () => ({
		messagingBotApi: {
			baseUrl: emulator().baseUrl,
			apiKey: emulator().apiKey,
			authHeader: 'bearer',
		},
		messagingBotWebhookApi: { secret: SECRET },
		messagingBotRedisApi: REDIS,
	});
	const sent = async () => await sentTexts(emulator(), 'cl_ada');

	beforeAll(async () => {
		const redis = new Redis({ host: REDIS.host, port: REDIS.port, db: REDIS.database });
		await redis.flushdb();
		await redis.quit();
	});
	afterAll(async () => await closeSharedRedisStores());

	/** One "n8n process": its own webhook server and its own Redis connections. */
	async function process(texts: string[]): Promise<WebhookHost> {
		const host = await new WebhookHost(redisBot, credentials()).start();
		const sub = await admin<{ id: string }>(emulator(), 'POST', '/subscriptions', {
			url: host.url,
			secret: SECRET,
			events: ['message.received'],
		});
		for (const text of texts) {
			await admin(emulator(), 'POST', '/inbound', {
				bot_id: 'bot_shop',
				client_id: 'cl_ada',
				text,
			});
			await admin(emulator(), 'POST', '/settle');
			await host.idle();
		}
		await admin(emulator(), 'DELETE', `/subscriptions/${sub.body.data.id}`);
		return host;
	}

	it('continues a conversation in another process and drops a delivery the first one took', async () => {
		const first = await process(['hi', 'where is my order']);
		await first.stop();
		await closeSharedRedisStores(); // the second process has connections of its own

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

		// Both nodes' state is in Redis, under the package's prefix.
		const redis = new Redis({ host: REDIS.host, port: REDIS.port, db: REDIS.database });
		const keys = await redis.keys('messaging-bot:*');
		await redis.quit();
		expect(keys.some((k) => k.startsWith('messaging-bot:{inbox:test}:claim:d:'))).toBe(true);
		expect(keys.some((k) => k.includes(':record:'))).toBe(true);
	});
});
