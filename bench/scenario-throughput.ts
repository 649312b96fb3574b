/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { Redis } from 'ioredis';
import { initialTransition, transition } from 'xstate';

import { ScenarioEngine, type MessageReceived, type PersistedSnapshot } from '../runtime/scenarios';
import { MemoryStore, type StateStore } from '../runtime/stores';
import type { PostgresCredential } from '../runtime/stores/postgres-options';
import { PostgresStore } from '../runtime/stores/postgres';
import { RedisStore } from '../runtime/stores/redis';
import { SqliteStore } from '../runtime/stores/sqlite';
import { createTestDatabase, dropTestDatabase } from '../test/helpers/postgres-db';
import {
	COUNTER_MESSAGES,
	countersOverhead,
	counterSize,
	type CounterStore,
} from './counters-overhead';
import { HistoryApi } from './history-api';
import { CLIENTS, clients, messages, order } from './order-traffic';
import { handleConcurrently, percentile, table } from './lib';

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
const REDIS_URL = process.env.MESSAGING_BOT_TEST_REDIS ?? 'redis://127.0.0.1:6379/0';
// BENCH_PG_FLUSH=0: the PostgreSQL store with Flush Each Write to Disk off (synchronous_commit off).
const PG_FLUSH = process.env.BENCH_PG_FLUSH !== '0';
// BENCH_STORES=sqlite,postgres: only these stores' throughput runs (and no counters or storage);
// with BENCH_ONLY=counters, only these stores' counters.
const STORES = process.env.BENCH_STORES?.split(',');
const benched = (store: string) => !STORES || STORES.includes(store);

type Run = {
	ms: number;
	latencies: number[];
	replies: number;
	commits?: number;
	/** Reads of a client's history for healing: none without a restart. */
	historyReads?: number;
	/** This process's CPU time per timed message. */
	cpuUs: number;
};

/** The floor: what xstate alone costs per message with the snapshot stored as JSON. */
function bareXstate(events: MessageReceived[]): Run {
	const stored = new Map<string, string>();
	const latencies: number[] = [];
	let replies = 0;
	const started = performance.now();
	for (const e of events) {
		const t = performance.now();
		const json = stored.get(e.client_id);
		const message = { text: e.text, message_id: e.message_id };
		const [snapshot, actions] = json
			? transition(
					order.machine,
					order.machine.resolveState(JSON.parse(json) as PersistedSnapshot),
					// The client's record read for the step, as the engine hands it (orders included).
					{ type: 'MESSAGE', message, client: clients[Number(e.client_id.slice(3))] },
				)
			: initialTransition(order.machine, { client: { id: e.client_id, tags: [] }, message });
		replies += actions.filter((a) => a.type === 'reply').length;
		stored.set(e.client_id, JSON.stringify(order.persist(snapshot)));
		latencies.push(performance.now() - t);
	}
	return { ms: performance.now() - started, latencies, replies, cpuUs: 0 };
}

async function throughEngine(
	store: StateStore,
	events: MessageReceived[],
	concurrency: number,
): Promise<Run> {
	// With a history to heal from, as the node's API client has: what healing costs without a crash.
	const api = new HistoryApi(clients);
	const engine = new ScenarioEngine({
		scenarios: [order],
		store,
		api,
		clock: { now: () => Date.now() },
	});
	const latencies: number[] = [];
	const commitsBefore = store instanceof SqliteStore ? store.commits : undefined;
	const cpu = process.cpuUsage();
	const started = performance.now();
	await handleConcurrently(async (e) => await engine.handle(e), events, concurrency, latencies);
	const ms = performance.now() - started;
	const used = process.cpuUsage(cpu);
	const commits =
		commitsBefore === undefined ? undefined : (store as SqliteStore).commits - commitsBefore;
	const cpuUs = (used.user + used.system) / events.length;
	return { ms, latencies, replies: api.calls.length, commits, historyReads: api.reads, cpuUs };
}

/** Runs with a fresh store from `open`, closed after. */
async function withStore(
	open: () => StateStore,
	events: MessageReceived[],
	concurrency: number,
): Promise<Run> {
	const store = open();
	try {
		return await throughEngine(store, events, concurrency);
	} finally {
		await store.close();
	}
}

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
async function counters(
	dir: string,
	redisPrefix: string,
	pg: PostgresCredential,
	out: (line?: string) => void,
): Promise<void> {
	const stores: Array<CounterStore & { kind: string }> = [
		{ kind: 'memory', name: 'MemoryStore', open: () => new MemoryStore() },
		{
			kind: 'sqlite',
			name: 'SqliteStore',
			open: (i) => new SqliteStore(path.join(dir, `k${i}.sqlite`)),
		},
		{
			kind: 'redis',
			name: 'RedisStore',
			open: (i) => new RedisStore(REDIS_URL, `${redisPrefix}-k${i}`),
		},
		{
			kind: 'postgres',
			name: 'PostgresStore',
			open: (i) => new PostgresStore({ ...pg, schema: `k${i}`, flushEachWrite: PG_FLUSH }),
		},
	];
	// Every client's conversation started (untimed), then COUNTER_MESSAGES timed.
	const start = Number(process.env.BENCH_COUNTER_UNTIMED ?? 3 * CLIENTS);
	await countersOverhead(
		stores.filter((s) => benched(s.kind)),
		messages(start + COUNTER_MESSAGES, 'k'),
		start,
		out,
	);
	await dropKeys(`${redisPrefix}-*`);
}

function gc(): () => void {
	v8.setFlagsFromString('--expose-gc');
	return vm.runInNewContext('gc') as () => void;
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
			return await counters(dir, `mb-bench-${process.pid}`, pg, out);
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
			await counters(dir, redisPrefix, pg, out);
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

		// Storage: CONVERSATIONS conversations, each started by one message.
		const starts = Array.from({ length: CONVERSATIONS }, (_, n) => ({
			message_id: `s-${n}`,
			client_id: `cl_${n}`,
			bot_id: 'bot_shop',
			text: 'hi',
		}));
		const collect = gc();
		collect();
		const heapBefore = process.memoryUsage().heapUsed;
		const memory = new MemoryStore();
		await throughEngine(memory, starts, CONCURRENCY);
		collect();
		const heapDelta = process.memoryUsage().heapUsed - heapBefore;
		const sample = await memory.read('scenario:default', 'bot_shop:cl_1');
		const file = path.join(dir, 'conversations.sqlite');
		const store = new SqliteStore(file);
		const started = performance.now();
		await throughEngine(store, starts, CONCURRENCY);
		const sqliteMs = performance.now() - started;
		await store.close(); // folds the write-ahead log into the file
		const bytes = statSync(file).size;
		const per = (total: number) => `${Math.round(total / CONVERSATIONS).toLocaleString('en')} B`;
		out(
			table([
				{
					[`${CONVERSATIONS.toLocaleString('en')} conversations`]: 'MemoryStore heap (after GC)',
					total: `${(heapDelta / 1_048_576).toFixed(1)} MiB`,
					'per conversation': per(heapDelta),
				},
				{
					[`${CONVERSATIONS.toLocaleString('en')} conversations`]: 'SqliteStore file',
					total: `${(bytes / 1_048_576).toFixed(1)} MiB`,
					'per conversation': per(bytes),
				},
			]),
		);
		out(
			`Stored record: ${sample?.value.length ?? 0} bytes of JSON per conversation (plus the message-id claim); SqliteStore started them at ${Math.round(CONVERSATIONS / (sqliteMs / 1000)).toLocaleString('en')} conversations/s.`,
		);
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
