/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling: temporary files, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Redis } from 'ioredis';

import { trafficOf } from '../../runtime/scenarios/analytics/reading';
import type { StateStore } from '../../runtime/stores';
import { RedisStore } from '../../runtime/stores/redis';
import { SqliteStore } from '../../runtime/stores/sqlite';
import { probabilityBBeatsA, wilsonReference } from '../helpers/beta-reference';
import { Chat, START } from './harness';
import { greetingOf, greetingTest } from './split-fixture';

/**
 * A 50/50 split over 2,000 clients through the engine on a real store, each client sent twice
 * through a restarted engine: every client always sees one variant, the shares are within
 * ±3 points, the counts per variant equal the transcripts, and the verdict's figures equal a
 * reference computed apart (helpers/beta-reference.ts).
 */

const CLIENTS = 2000;
const IN_FLIGHT = 50;
const dir = mkdtempSync(path.join(tmpdir(), 'mb-split-'));
const REDIS_URL = process.env.MESSAGING_BOT_TEST_REDIS ?? 'redis://127.0.0.1:6379/0';
const prefix = `mb-split-${process.pid}-${Date.now()}`;
afterAll(async () => {
	rmSync(dir, { recursive: true, force: true });
	const redis = new Redis(REDIS_URL);
	const keys = await redis.keys(`${prefix}*`);
	if (keys.length > 0) await redis.del(...keys);
	await redis.quit();
});

const stores: Array<{ name: string; open: (now: () => number) => StateStore }> = [
	{ name: 'sqlite', open: (now) => new SqliteStore(path.join(dir, 'split.sqlite'), now) },
	{ name: 'redis', open: (now) => new RedisStore(REDIS_URL, prefix, now) },
];

/** Every client says `text` once, IN_FLIGHT at a time; the variant each one's greeting shows. */
async function everyone(chat: Chat, text: string, round: number): Promise<Map<string, string>> {
	const seen = new Map<string, string>();
	for (let first = 0; first < CLIENTS; first += IN_FLIGHT) {
		const batch = Array.from({ length: Math.min(IN_FLIGHT, CLIENTS - first) }, (_, k) => first + k);
		await Promise.all(
			batch.map(async (i) => {
				const client = `cl_${i}`;
				const result = await chat.engine.handle({
					message_id: `m_${client}_${round}`,
					client_id: client,
					bot_id: 'bot_shop',
					text,
					channel: 'telegram',
					timestamp: new Date(chat.time).toISOString(),
				});
				const texts = result.actions.flatMap((a) => (a.kind === 'reply' ? [a.text ?? ''] : []));
				seen.set(client, greetingOf(texts));
			}),
		);
	}
	return seen;
}

describe.each(stores)('a 50/50 split over 2,000 clients ($name store)', ({ open }) => {
	it('keeps each client in one variant across a restart, and counts what the transcripts show', async () => {
		const first = new Chat([greetingTest()], { openStore: open });
		const variants = await everyone(first, 'hi', 0);
		// The clients who order: a third of "short", half of "warm" (by their number).
		const orders = (i: number) => (variants.get(`cl_${i}`) === 'short' ? i % 3 === 0 : i % 2 === 0);
		for (let i = 0; i < CLIENTS; i++)
			if (orders(i)) await first.say('yes', `cl_${i}`, `m_cl_${i}_yes`);
		await first.store.close();

		// A restarted process: a new store connection and a new engine on the same data.
		const second = new Chat([greetingTest()], { openStore: open });
		second.time = first.time;
		const again = await everyone(second, 'hi again', 1);
		let moved = 0;
		for (const [client, variant] of variants) if (again.get(client) !== variant) moved++;
		expect(moved).toBe(0);

		const count = (variant: string) => {
			const mine = [...variants].filter(([, v]) => v === variant).map(([c]) => Number(c.slice(3)));
			return { clients: mine.length, goal: mine.filter(orders).length };
		};
		const short = count('short');
		const warm = count('warm');
		expect(Math.abs((100 * short.clients) / CLIENTS - 50)).toBeLessThanOrEqual(3);

		const report = await second.engine.analytics({ from: START, to: START, now: second.time });
		const [split] = report.splits;
		expect(
			split.variants.map(({ variant, clients, goal }) => ({ variant, clients, goal })),
		).toEqual([
			{ variant: 'short', ...short },
			{ variant: 'warm', ...warm },
		]);
		// Each client passed the split twice: its variant's arrow was taken twice.
		const edges = trafficOf(report).edges.filter((e) => e.from === 'hello');
		expect(edges).toEqual(
			expect.arrayContaining([
				{ from: 'hello', to: 'short', count: 2 * short.clients },
				{ from: 'hello', to: 'warm', count: 2 * warm.clients },
			]),
		);
		// The verdict's figures against the reference computed apart.
		const [low, high] = wilsonReference(short.goal, short.clients);
		expect(split.variants[0].interval?.low).toBeCloseTo(low, 9);
		expect(split.variants[0].interval?.high).toBeCloseTo(high, 9);
		const warmBest = probabilityBBeatsA([short.clients, short.goal], [warm.clients, warm.goal]);
		expect(split.variants[1].probabilityBest).toBeCloseTo(warmBest, 6);
		await second.store.close();
	}, 300_000);
});
