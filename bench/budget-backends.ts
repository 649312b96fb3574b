/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { Redis } from 'ioredis';
import { Pool } from 'pg';

import { createTestDatabase, dropTestDatabase } from '../test/helpers/postgres-db';
import { percentile, REDIS_URL, table } from './lib';

/**
 * Where the shared request budget could live: one atomic "take a slot of the sliding window" on
 * Redis (a Lua script, as runtime/api/budget's), and the same on PostgreSQL (one statement on the
 * key's row: its slots pruned and one appended, if fewer than the limit), in a logged table
 * (flushed at each commit) and in an unlogged one (no log, emptied by a crash). Every process of a
 * queue-mode n8n takes from the same key, so all callers contend for one row. Takes/s and latency,
 * 1 and 20 callers at once.
 */
const TAKES = Number(process.env.BENCH_TAKES ?? 2000);
const LIMIT = 1_000_000;
const SPAN_MS = 1000;

const REDIS_TAKE = `
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

const PG_TAKE = (table: string) => `
UPDATE ${table} SET slots = array_append(ARRAY(SELECT s FROM unnest(slots) s WHERE s > $2::bigint - $3::bigint), $2::bigint)
WHERE key = $1 AND cardinality(ARRAY(SELECT s FROM unnest(slots) s WHERE s > $2::bigint - $3::bigint)) < $4::int
RETURNING cardinality(slots)`;

type Take = (i: number) => Promise<unknown>;

async function measure(
	take: Take,
	callers: number,
): Promise<{ perSecond: number; p50: number; p99: number }> {
	const latencies: number[] = [];
	let next = 0;
	const started = performance.now();
	await Promise.all(
		Array.from({ length: callers }, async () => {
			while (next < TAKES) {
				const i = next++;
				const t = performance.now();
				await take(i);
				latencies.push(performance.now() - t);
			}
		}),
	);
	const ms = performance.now() - started;
	latencies.sort((a, b) => a - b);
	return {
		perSecond: TAKES / (ms / 1000),
		p50: percentile(latencies, 50),
		p99: percentile(latencies, 99),
	};
}

async function main(): Promise<void> {
	const key = `mb-bench-budget-${process.pid}`;
	const redis = new Redis(REDIS_URL);
	const pg = await createTestDatabase('budget');
	const pool = new Pool({
		host: pg.host,
		port: pg.port,
		user: pg.user,
		database: pg.database,
		max: 20,
	});
	const rows: Array<Record<string, string>> = [];
	try {
		await pool.query('CREATE TABLE logged (key text PRIMARY KEY, slots bigint[] NOT NULL)');
		await pool.query(
			'CREATE UNLOGGED TABLE unlogged (key text PRIMARY KEY, slots bigint[] NOT NULL)',
		);
		// A window of SPAN_MS holds about a second of takes: the row stays the size a busy key gives.
		for (const t of ['logged', 'unlogged'])
			await pool.query(`INSERT INTO ${t} VALUES ($1, '{}')`, [key]);
		const backends: Array<[string, Take]> = [
			[
				'Redis, Lua script',
				(i) => redis.eval(REDIS_TAKE, 1, key, Date.now(), SPAN_MS, LIMIT, `${i}`),
			],
			...(['logged', 'unlogged'] as const).map((t): [string, Take] => [
				`PostgreSQL, ${t} table`,
				() =>
					pool.query({
						name: `take-${t}`,
						text: PG_TAKE(t),
						values: [key, Date.now(), SPAN_MS, LIMIT],
					}),
			]),
		];
		for (const callers of [1, 20])
			for (const [name, take] of backends) {
				await measure(take, callers); // warm-up
				const m = await measure(take, callers);
				rows.push({
					backend: name,
					callers: String(callers),
					'takes/s': Math.round(m.perSecond).toLocaleString('en'),
					'p50 ms': m.p50.toFixed(2),
					'p99 ms': m.p99.toFixed(2),
				});
			}
		process.stdout.write(
			`Shared request budget, one key, ${TAKES} takes per run\n${table(rows)}\n`,
		);
	} finally {
		await redis.del(key);
		await redis.quit();
		await pool.end();
		await dropTestDatabase(pg);
	}
}

main().catch((error: unknown) => {
	process.stderr.write(
		`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exitCode = 1;
});
