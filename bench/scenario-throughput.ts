/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';

import { MemoryStore } from '../runtime/stores';
import { PostgresStore } from '../runtime/stores/postgres';
import { RedisStore } from '../runtime/stores/redis';
import { SqliteStore } from '../runtime/stores/sqlite';
import { createTestDatabase, dropTestDatabase } from '../test/helpers/postgres-db';
import { counterStores, PG_FLUSH, type StorePlace } from './counter-stores';
import { countersOverhead, counterSize } from './counters-overhead';
import { COUNTER_MESSAGES } from './counters-side';
import { bareXstate, throughEngine, withStore, type Run } from './engine-run';
import { CLIENTS, messages } from './order-traffic';
import { percentile, REDIS_URL, table } from './lib';
import { storedSize } from './stored-size';

/**
 * Messages per second through ScenarioEngine.handle (load, dedupe, step, save with the outbox,
 * send through a fake in-process sender, record each send) with each store, against the bare
 * xstate step on the same machine (JSON snapshot in, transition(), JSON snapshot out) measured in
 * the same run; p99 latency; and what 100,000 stored conversations cost.
 */
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20_000);
const CONCURRENCY = 50;
const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 100_000);
// The machine's Redis (the one n8n queue mode would use); the run's keys are deleted after.
// BENCH_STORES=sqlite,postgres: only these stores' throughput runs (and no counters or storage);
// with BENCH_ONLY=counters, only these stores' counters.
const STORES = process.env.BENCH_STORES?.split(',');
const benched = (store: string) => !STORES || STORES.includes(store);

async function dropKeys(pattern: string): Promise<void> {
	const redis = new Redis(REDIS_URL);
	try {
		const keys = await redis.keys(pattern);
		for (let i = 0; i < keys.length; i += 1000) await redis.del(...keys.slice(i, i + 1000));
	} finally {
		await redis.quit();
	}
}

/** The counters on against off, each store (BENCH_ONLY=counters: only this, BENCH_STORES: those). */
async function counters(place: StorePlace, out: (line?: string) => void): Promise<void> {
	// Every client's conversation started (untimed), then COUNTER_MESSAGES timed.
	const start = Number(process.env.BENCH_COUNTER_UNTIMED ?? 3 * CLIENTS);
	await countersOverhead(
		counterStores(place).filter((s) => benched(s.kind)),
		{ place, total: start + COUNTER_MESSAGES, untimed: start },
		out,
	);
	await dropKeys(`${place.redisPrefix}-*`);
}

async function main(): Promise<void> {
	const dir = mkdtempSync(path.join(tmpdir(), 'mb-bench-'));
	const pg = await createTestDatabase('bench');
	const out = (line = '') => process.stdout.write(`${line}\n`);
	try {
		out(
			`Scenario throughput: ${MESSAGES.toLocaleString('en')} messages, ${CLIENTS} clients, examples/scenarios/order-status.json, fake in-process sender`,
		);
		out(`node ${process.version}, ${process.platform} ${process.arch}`);
		out();
		// Warm-up, so that neither side pays for the JIT.
		bareXstate(messages(2_000, 'warm'));
		await throughEngine(new MemoryStore(), messages(2_000, 'warm'), 1);

		const events = messages(MESSAGES, 'm');
		if (process.env.BENCH_ONLY === 'counters')
			return await counters({ dir, redisPrefix: `mb-bench-${process.pid}`, pg }, out);
		// The floor is the fastest of three runs: a pause of the shared machine must not lower it.
		const bare = [bareXstate(events), bareXstate(events), bareXstate(events)].sort(
			(a, b) => a.ms - b.ms,
		)[0];
		const runs: Array<[string, Run]> = [['bare xstate transition() + JSON (best of 3)', bare]];
		const memoryRun = new MemoryStore();
		if (benched('memory')) {
			runs.push([
				'handle(), MemoryStore, 1 in flight',
				await throughEngine(new MemoryStore(), events, 1),
			]);
			runs.push([
				`handle(), MemoryStore, ${CONCURRENCY} in flight`,
				await throughEngine(memoryRun, events, CONCURRENCY),
			]);
		}
		for (const concurrency of benched('sqlite') ? [1, CONCURRENCY] : []) {
			runs.push([
				`handle(), SqliteStore, ${concurrency} in flight`,
				await withStore(
					() => new SqliteStore(path.join(dir, `c${concurrency}.sqlite`)),
					events,
					concurrency,
				),
			]);
		}
		const redisPrefix = `mb-bench-${process.pid}`;
		for (const concurrency of benched('redis') ? [1, CONCURRENCY] : []) {
			runs.push([
				`handle(), RedisStore, ${concurrency} in flight`,
				await withStore(
					() => new RedisStore(REDIS_URL, `${redisPrefix}-${concurrency}`),
					events,
					concurrency,
				),
			]);
		}
		// The machine's PostgreSQL, in a database of this run's own (dropped after).
		for (const concurrency of benched('postgres') ? [1, CONCURRENCY] : []) {
			runs.push([
				`handle(), PostgresStore, ${concurrency} in flight`,
				await withStore(
					() => new PostgresStore({ ...pg, schema: `c${concurrency}`, flushEachWrite: PG_FLUSH }),
					events,
					concurrency,
				),
			]);
		}
		if (!STORES) {
			await counterSize(memoryRun, REDIS_URL, `${redisPrefix}-${CONCURRENCY}`, out);
			await dropKeys(`${redisPrefix}-*`);
			await counters({ dir, redisPrefix, pg }, out);
		}

		const base = MESSAGES / (runs[0][1].ms / 1000);
		out(
			table(
				runs.map(([name, run]) => {
					const rate = MESSAGES / (run.ms / 1000);
					const sorted = [...run.latencies].sort((a, b) => a - b);
					return {
						run: name,
						'messages/s': Math.round(rate).toLocaleString('en'),
						'time vs bare xstate': name.startsWith('bare')
							? '1.0x (baseline)'
							: `${(base / rate).toFixed(1)}x`,
						'p50 ms': percentile(sorted, 50).toFixed(3),
						'p99 ms': percentile(sorted, 99).toFixed(3),
						'effects sent': run.replies.toLocaleString('en'),
						'commits/message': run.commits === undefined ? '' : (run.commits / MESSAGES).toFixed(2),
						'history reads/1,000':
							run.historyReads === undefined ? '' : String((run.historyReads * 1000) / MESSAGES),
					};
				}),
			),
		);
		out();
		if (STORES) return;

		await storedSize(CONVERSATIONS, dir, out);
	} finally {
		rmSync(dir, { recursive: true, force: true });
		await dropTestDatabase(pg);
	}
}

main().catch((error: unknown) => {
	process.stderr.write(
		`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exitCode = 1;
});
