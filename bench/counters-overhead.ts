/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { Redis } from 'ioredis';

import type { ScenarioEngine } from '../runtime/scenarios';
import { COUNTERS_NAMESPACE } from '../runtime/scenarios/analytics/counter-keys';
import type { ConversationRecord } from '../runtime/scenarios/durability/record';
import type { StateStore } from '../runtime/stores';
import type { WriteOptions } from '../runtime/stores/types';
import { apartInterleaved } from './counters-apart';
import { CHUNKS, CONCURRENCY, COUNTER_MESSAGES, side, type CounterStore } from './counters-side';
import type { KindOfStore, StorePlace } from './counter-stores';
import { table } from './lib';
import { messages } from './order-traffic';
import { interleaved, overheadRow } from './overhead-verdict';

/** A record as the engine's count reads it: none before a conversation's first write. */
export type Rec = ConversationRecord | undefined;
/** The engine's count of one write (its ConversationStore's `countersOf`, a private method). */
export type Count = (
	before: Rec,
	after: ConversationRecord,
	now: number,
) => WriteOptions['counters'];

/** A copy of a record a count may mark; the step's notes (symbol-keyed) are spread with it. */
export const copyRecord = (r: Rec): Rec => r && { ...r, outbox: r.outbox.map((e) => ({ ...e })) };

/** Puts a count built from the engine's own in its place, on this engine only. */
export function replaceCount(engine: ScenarioEngine, make: (own: Count) => Count): void {
	const conversations = (engine as unknown as { conversations: { countersOf: Count } })
		.conversations;
	conversations.countersOf = make(conversations.countersOf.bind(conversations));
}

/**
 * The analytics counters' cost: each store with the counters on and off in the same run, both
 * sides open at once (a fresh store each, every client's conversation first started outside the
 * time) and fed in turns by chunks (overhead-verdict.ts). The verdict is by this process's CPU
 * time per message: with Redis and PostgreSQL the wall time holds the servers' work, another
 * process's on a shared machine, and any other load on it; the counters' cost in this process is
 * what the CPU shows. Then what a scenario-day's counters take.
 */
const ROUNDS = Number(process.env.BENCH_COUNTER_ROUNDS ?? 16);

/**
 * BENCH_COUNTER_APART=1: each side in a process of its own (counters-apart.ts), to tell what the
 * two sides' sharing one process adds to the cost from what the counting costs.
 */
const APART = process.env.BENCH_COUNTER_APART === '1';

export async function countersOverhead(
	stores: ReadonlyArray<CounterStore & { kind: KindOfStore }>,
	run: { place: StorePlace; total: number; untimed: number },
	out: (line?: string) => void,
): Promise<void> {
	const rows: Array<Record<string, string>> = [];
	const events = messages(run.total, 'k');
	let n = 0;
	const labels = { off: 'off', on: 'on', short: 'on' };
	for (const store of stores) {
		const [off, on] = APART
			? await apartInterleaved({ ...run, kind: store.kind }, ROUNDS, CHUNKS)
			: await interleaved(
					ROUNDS,
					CHUNKS,
					async (i) => await side(store.open(++n), events, run.untimed, i === 1),
				);
		rows.push({ store: store.name, ...overheadRow(labels, off, on, 0.1) });
	}
	out(
		`Analytics counters on vs off (${COUNTER_MESSAGES.toLocaleString('en')} messages a side after ${run.untimed} untimed, ${CONCURRENCY} in flight, ${ROUNDS} rounds of both sides ${APART ? 'each in a process of its own, ' : ''}fed in turns by chunks of ${Math.ceil(COUNTER_MESSAGES / CHUNKS)} messages, ABBA by pair, fresh stores each round). Verdict: the median over pairs of the pair's CPU ratio (this process's CPU time per message, off over on; the servers' time is another process's), said within 10 % only when its 95 % interval is; by wall: on's messages/s over off's:`,
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
