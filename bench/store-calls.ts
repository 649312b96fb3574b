/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { Client } from 'pg';

import { ScenarioEngine } from '../runtime/scenarios';
import type { StateStore } from '../runtime/stores';
import { PostgresStore } from '../runtime/stores/postgres';
import { RedisStore } from '../runtime/stores/redis';
import { SqliteStore } from '../runtime/stores/sqlite';
import type { PostgresCredential } from '../runtime/stores/postgres-options';
import { createTestDatabase, dropTestDatabase } from '../test/helpers/postgres-db';
import { HistoryApi } from './history-api';
import { REDIS_URL } from './lib';
import { clients, messages, order } from './order-traffic';

/**
 * What one handled message costs each store: the store operations the engine calls, and the
 * commands or statements that reach the server (round trips; on PostgreSQL a group commit's
 * batch is one). `BENCH_MESSAGES=3000 npx tsx bench/store-calls.ts`.
 */
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 3000);

/** Counts calls of `methods` on `proto`, by name, while installed. */
function counting(proto: object, method: string, name: (args: unknown[]) => string) {
	const counts = new Map<string, number>();
	const target = proto as Record<string, (...args: unknown[]) => unknown>;
	const original = target[method];
	target[method] = function (this: unknown, ...args: unknown[]) {
		const key = name(args);
		counts.set(key, (counts.get(key) ?? 0) + 1);
		return original.apply(this, args);
	};
	return { counts, restore: () => (target[method] = original) };
}

/** The store's operations, counted, by name. */
function countedStore(store: StateStore, counts: Map<string, number>): StateStore {
	return new Proxy(store, {
		get(target, prop, receiver) {
			const value = Reflect.get(target, prop, receiver) as unknown;
			if (typeof value !== 'function') return value;
			return (...args: unknown[]) => {
				counts.set(String(prop), (counts.get(String(prop)) ?? 0) + 1);
				return (value as (...a: unknown[]) => unknown).apply(target, args);
			};
		},
	});
}

const perMessage = (counts: Map<string, number>) =>
	[...counts]
		.sort((a, b) => b[1] - a[1])
		.map(([k, n]) => `${k} ${(n / MESSAGES).toFixed(2)}`)
		.join(', ');
const total = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);

async function run(name: string, open: () => StateStore, concurrency: number): Promise<void> {
	const store = open();
	const ops = new Map<string, number>();
	const pgQueries = counting(Client.prototype, 'query', (args) => {
		const q = args[0] as { name?: string } | string;
		return typeof q === 'string' ? q.slice(0, 20) : (q.name ?? 'unnamed');
	});
	const redisCommands = counting(Redis.prototype, 'sendCommand', (args) => {
		return (args[0] as { name: string }).name;
	});
	const api = new HistoryApi(clients);
	const engine = new ScenarioEngine({
		scenarios: [order],
		store: countedStore(store, ops),
		api,
		clock: { now: () => Date.now() },
	});
	let next = 0;
	const events = messages(MESSAGES, 'm');
	try {
		await Promise.all(
			Array.from({ length: concurrency }, async () => {
				while (next < events.length) await engine.handle(events[next++]);
			}),
		);
	} finally {
		pgQueries.restore();
		redisCommands.restore();
		await store.close();
	}
	const wire = name.startsWith('Postgres') ? pgQueries.counts : redisCommands.counts;
	process.stdout.write(
		`${name}, ${concurrency} in flight: ${(total(ops) / MESSAGES).toFixed(2)} store operations/message (${perMessage(ops)})\n`,
	);
	if (!name.startsWith('Sqlite'))
		process.stdout.write(
			`  ${(total(wire) / MESSAGES).toFixed(2)} statements or commands sent/message (${perMessage(wire)})\n`,
		);
}

/** What bounds a statement here: a round trip (SELECT 1) and a durable commit, one at a time. */
async function floor(pg: PostgresCredential): Promise<void> {
	const client = new Client({ host: pg.host, port: pg.port, user: pg.user, database: pg.database });
	await client.connect();
	try {
		await client.query('CREATE TABLE IF NOT EXISTS flush_probe (n int)');
		const median = async (sql: string) => {
			const times: number[] = [];
			for (let i = 0; i < 300; i++) {
				const t = performance.now();
				await client.query(sql);
				times.push(performance.now() - t);
			}
			return times.sort((a, b) => a - b)[150].toFixed(2);
		};
		const select = await median('SELECT 1');
		const commit = await median('INSERT INTO flush_probe VALUES (1)');
		process.stdout.write(
			`PostgreSQL: SELECT 1 ${select} ms, a durable commit ${commit} ms (medians of 300)\n`,
		);
	} finally {
		await client.end();
	}
}

async function main(): Promise<void> {
	const dir = mkdtempSync(path.join(tmpdir(), 'mb-calls-'));
	const pg = await createTestDatabase('calls');
	const prefix = `mb-calls-${process.pid}`;
	try {
		await floor(pg);
		for (const concurrency of [1, 50]) {
			await run(
				'SqliteStore',
				() => new SqliteStore(path.join(dir, `c${concurrency}.sqlite`)),
				concurrency,
			);
			await run(
				'RedisStore',
				() => new RedisStore(REDIS_URL, `${prefix}-${concurrency}`),
				concurrency,
			);
			await run(
				'PostgresStore',
				() => new PostgresStore({ ...pg, schema: `c${concurrency}` }),
				concurrency,
			);
		}
	} finally {
		rmSync(dir, { recursive: true, force: true });
		await dropTestDatabase(pg);
		const redis = new Redis(REDIS_URL);
		const keys = await redis.keys(`${prefix}-*`);
		if (keys.length > 0) await redis.del(...keys);
		await redis.quit();
	}
}

main().catch((error: unknown) => {
	process.stderr.write(
		`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exitCode = 1;
});
