/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { Redis } from 'ioredis';

import type { MessageReceived } from '../runtime/scenarios';
import { COUNTERS_NAMESPACE } from '../runtime/scenarios/analytics/counter-keys';
import type { StateStore } from '../runtime/stores';
import { table } from './lib';

/**
 * The analytics counters' cost: each store's messages/s with the counters on and off, measured in
 * the same run, alternately (off, on, off, on, ...), best of `ROUNDS` each, so a pause of the
 * shared machine does not land on one side only; and the process's CPU time per message (user and
 * system, from `process.cpuUsage`), which time taken by other processes on the machine does not
 * move. Then what a scenario-day's counters take.
 */
const ROUNDS = Number(process.env.BENCH_COUNTER_ROUNDS ?? 5);

/** One run's messages per second (wall clock). */
export type Throughput = (
	open: () => StateStore,
	events: MessageReceived[],
	analytics: boolean,
) => Promise<number>;

interface Measured {
	perSecond: number;
	cpuUs: number;
}

async function measure(rate: Throughput, ...args: Parameters<Throughput>): Promise<Measured> {
	const before = process.cpuUsage();
	const perSecond = await rate(...args);
	const used = process.cpuUsage(before);
	return { perSecond, cpuUs: (used.user + used.system) / args[1].length };
}

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
		const off: Measured[] = [];
		const on: Measured[] = [];
		for (let round = 0; round < ROUNDS; round++) {
			off.push(await measure(rate, () => store.open(++n), events, false));
			on.push(await measure(rate, () => store.open(++n), events, true));
		}
		const best = (runs: Measured[]) => Math.max(...runs.map((r) => r.perSecond));
		const leastCpu = (runs: Measured[]) => Math.min(...runs.map((r) => r.cpuUs));
		const ratio = best(on) / best(off);
		const cpuRatio = leastCpu(off) / leastCpu(on);
		rows.push({
			store: store.name,
			'counters off, messages/s': Math.round(best(off)).toLocaleString('en'),
			'counters on, messages/s': Math.round(best(on)).toLocaleString('en'),
			'on / off': ratio.toFixed(3),
			'CPU µs/message off / on': `${leastCpu(off).toFixed(1)} / ${leastCpu(on).toFixed(1)}`,
			'by CPU, on / off': cpuRatio.toFixed(3),
			'within 10 %':
				ratio >= 0.9 && cpuRatio >= 0.9
					? 'yes'
					: ratio >= 0.9 || cpuRatio >= 0.9
						? 'one of two'
						: 'NO',
		});
	}
	out(
		`Analytics counters on vs off (${events.length.toLocaleString('en')} messages, 50 in flight, best of ${ROUNDS} alternate runs each; by CPU: this process's CPU time per message, least of the runs, off over on):`,
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
