/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { Redis } from 'ioredis';

import type { MessageReceived } from '../runtime/scenarios';
import { COUNTERS_NAMESPACE } from '../runtime/scenarios/analytics/counter-keys';
import type { StateStore } from '../runtime/stores';
import { table } from './lib';
import { abbaRounds, overheadRow, type RunResult } from './overhead-verdict';

/**
 * The analytics counters' cost: each store with the counters on and off in the same run, many
 * short rounds in ABBA order (overhead-verdict.ts), each run a fresh store whose conversations are
 * first started outside its time. The verdict is by this process's CPU time per message: with
 * Redis and PostgreSQL the wall time holds the servers' work, another process's on a shared
 * machine, and any other load on it; the counters' cost in this process is what the CPU shows.
 * Then what a scenario-day's counters take.
 */
const ROUNDS = Number(process.env.BENCH_COUNTER_ROUNDS ?? 16);
/** The messages a run times, after every client's first three (untimed). */
export const COUNTER_MESSAGES = Number(process.env.BENCH_COUNTER_MESSAGES ?? 4_000);

/** One run: the store from `open`, `events` through it, the counters on or off. */
export type Throughput = (
	open: () => StateStore,
	events: MessageReceived[],
	analytics: boolean,
) => Promise<RunResult>;

export interface CounterStore {
	name: string;
	/** A fresh store per run (`i` tells them apart). */
	open(i: number): StateStore;
}

export async function countersOverhead(
	stores: readonly CounterStore[],
	events: MessageReceived[],
	rate: Throughput,
	out: (line?: string) => void,
): Promise<void> {
	const rows: Array<Record<string, string>> = [];
	let n = 0;
	const labels = { off: 'off', on: 'on', short: 'on' };
	for (const store of stores) {
		const [off, on] = await abbaRounds(
			ROUNDS,
			async (side) => await rate(() => store.open(++n), events, side === 1),
		);
		rows.push({ store: store.name, ...overheadRow(labels, off, on, 0.1) });
	}
	out(
		`Analytics counters on vs off (${COUNTER_MESSAGES.toLocaleString('en')} messages a run after ${events.length - COUNTER_MESSAGES} untimed, 50 in flight, ${ROUNDS} rounds in ABBA order, a fresh store each run). Verdict: the median over rounds of the round's CPU ratio (this process's CPU time per message, off over on; the servers' time is another process's), said within 10 % only when its 95 % interval is; by wall: on's messages/s over off's:`,
	);
	out(table(rows));
	out();
}

/** A scenario-day's counters after a run: fields, and bytes in Redis (MEMORY USAGE). */
export async function counterSize(
	memory: StateStore,
	redisUrl: string,
	redisPrefix: string,
	out: (line?: string) => void,
): Promise<void> {
	const hashes = await memory.counters(COUNTERS_NAMESPACE, '');
	const day = hashes.find((h) => !h.key.endsWith('|now'));
	if (!day) return;
	const fields = Object.keys(day.fields);
	const raw = fields.reduce((sum, f) => sum + f.length + 8, 0);
	const redis = new Redis(redisUrl);
	try {
		const keys = await redis.keys(`${redisPrefix}*counters*|20*`);
		const bytes = keys.length > 0 ? await redis.memory('USAGE', keys[0]) : null;
		out(
			`A scenario-day's counters (order-status, the run above): ${fields.length} fields, ${raw} bytes of names and values; in Redis ${bytes ?? '?'} bytes (MEMORY USAGE of the day's hash).`,
		);
	} finally {
		await redis.quit();
	}
	out();
}
