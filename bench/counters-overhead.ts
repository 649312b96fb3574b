/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { Redis } from 'ioredis';

import type { MessageReceived } from '../runtime/scenarios';
import { COUNTERS_NAMESPACE } from '../runtime/scenarios/durability/counter-keys';
import type { StateStore } from '../runtime/stores';
import { table } from './lib';

/**
 * The analytics counters' cost: each store's messages/s with the counters on and off, measured in
 * the same run, alternately (off, on, off, on, ...), best of `ROUNDS` each, so a pause of the
 * shared machine does not land on one side only. Then what a scenario-day's counters take.
 */
const ROUNDS = Number(process.env.BENCH_COUNTER_ROUNDS ?? 3);

export type Throughput = (
	open: () => StateStore,
	events: MessageReceived[],
	analytics: boolean,
) => Promise<number>;

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
	for (const store of stores) {
		const off: number[] = [];
		const on: number[] = [];
		for (let round = 0; round < ROUNDS; round++) {
			off.push(await rate(() => store.open(++n), events, false));
			on.push(await rate(() => store.open(++n), events, true));
		}
		const best = (rates: number[]) => Math.max(...rates);
		const ratio = best(on) / best(off);
		rows.push({
			store: store.name,
			'counters off, messages/s': Math.round(best(off)).toLocaleString('en'),
			'counters on, messages/s': Math.round(best(on)).toLocaleString('en'),
			'on / off': ratio.toFixed(3),
			'within 10 %': ratio >= 0.9 ? 'yes' : 'NO',
		});
	}
	out(
		`Analytics counters on vs off (${events.length.toLocaleString('en')} messages, 50 in flight, best of ${ROUNDS} alternate runs each):`,
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
