/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { performance } from 'node:perf_hooks';

import type { StateStore } from '../runtime/stores';
import { MemoryStore } from '../runtime/stores/memory';
import { PostgresStore } from '../runtime/stores/postgres';
import { RedisStore } from '../runtime/stores/redis';
import { createTestDatabase, dropTestDatabase } from '../test/helpers/postgres-db';
import { replaceCount } from './counters-overhead';
import { benchEngine } from './counters-side';
import { handleConcurrently, REDIS_URL, table } from './lib';
import { messages } from './order-traffic';

/**
 * The engine's count timed where it runs (its ConversationStore's `countersOf`, each call between
 * two clock reads), on each store in turn, counters on, the counters bench's traffic (50 in
 * flight, 3,000 untimed first): what the count itself costs a message beside the process's whole
 * CPU a message, to tell its own time from what it costs the code around it.
 * `npx tsx bench/count-in-situ.ts` (about 2 minutes); BENCH_STORES (default memory,postgres,redis),
 * BENCH_IN_SITU_ROUNDS (each store once a round, default 3), BENCH_IN_SITU_MESSAGES (20,000).
 */
const ROUNDS = Number(process.env.BENCH_IN_SITU_ROUNDS ?? 3);
const MESSAGES = Number(process.env.BENCH_IN_SITU_MESSAGES ?? 20_000);
const UNTIMED = 3_000;
const STORES = (process.env.BENCH_STORES ?? 'memory,postgres,redis').split(',');

async function main(): Promise<void> {
	const pg = STORES.includes('postgres') ? await createTestDatabase('in_situ') : undefined;
	const events = messages(UNTIMED + MESSAGES, 'k');
	const rows: Array<Record<string, string>> = [];
	let n = 0;
	const open = (kind: string): StateStore =>
		kind === 'postgres' && pg
			? new PostgresStore({ ...pg, schema: `s${++n}`, flushEachWrite: true })
			: kind === 'redis'
				? new RedisStore(REDIS_URL, `mb-in-situ-${process.pid}-${++n}`)
				: new MemoryStore();
	try {
		for (let round = 1; round <= ROUNDS; round++)
			for (const kind of STORES)
				rows.push({ round: String(round), ...(await timed(kind, open(kind), events)) });
	} finally {
		await dropTestDatabase(pg);
	}
	process.stdout.write(
		`The engine's count where it runs, counters on (${MESSAGES.toLocaleString('en')} messages after ${UNTIMED.toLocaleString('en')} untimed, 50 in flight):\n${table(rows)}\n`,
	);
}

async function timed(
	kind: string,
	store: StateStore,
	events: ReturnType<typeof messages>,
): Promise<Record<string, string>> {
	const engine = benchEngine(store, true);
	let spent = 0;
	let calls = 0;
	replaceCount(engine, (own) => (before, after, now) => {
		const start = performance.now();
		const counts = own(before, after, now);
		spent += performance.now() - start;
		calls++;
		return counts;
	});
	const handle = async (list: typeof events) =>
		await handleConcurrently(async (e) => await engine.handle(e), list, 50, []);
	try {
		await handle(events.slice(0, UNTIMED));
		spent = 0;
		calls = 0;
		const cpu = process.cpuUsage();
		await handle(events.slice(UNTIMED));
		const used = process.cpuUsage(cpu);
		return {
			store: kind,
			'count µs/call': ((spent * 1000) / calls).toFixed(2),
			'count µs/message': ((spent * 1000) / MESSAGES).toFixed(2),
			'calls/message': (calls / MESSAGES).toFixed(2),
			'process CPU µs/message': ((used.user + used.system) / MESSAGES).toFixed(1),
		};
	} finally {
		await store.close();
	}
}

void main();
