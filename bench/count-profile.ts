/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- benchmark tooling: runs itself in child processes, never loaded by n8n */
import { execFileSync } from 'node:child_process';
import { Session } from 'node:inspector/promises';

import type { StateStore } from '../runtime/stores';
import { MemoryStore } from '../runtime/stores/memory';
import { PostgresStore } from '../runtime/stores/postgres';
import type { PostgresCredential } from '../runtime/stores/postgres-options';
import { RedisStore } from '../runtime/stores/redis';
import { createTestDatabase, dropTestDatabase } from '../test/helpers/postgres-db';
import { benchEngine } from './counters-side';
import { handleConcurrently, REDIS_URL, table } from './lib';
import { messages } from './order-traffic';

/**
 * Where the analytics counters' time goes, by function: one engine a process (the counters
 * bench's traffic, 50 in flight), counters off or on, sampled by V8's profiler on the main thread
 * every 100 µs after an untimed warm-up; processes of the two sides alternated, each side's self
 * time per message averaged, and the functions printed by what they cost more with the counters on.
 * `npx tsx bench/count-profile.ts` (about 3 minutes); BENCH_PROFILE_STORE=redis or postgres (the machine's
 * Redis), BENCH_PROFILE_RUNS (a side, default 3), BENCH_PROFILE_MESSAGES (default 30,000).
 */
const RUNS = Number(process.env.BENCH_PROFILE_RUNS ?? 3);
const MESSAGES = Number(process.env.BENCH_PROFILE_MESSAGES ?? 30_000);
const UNTIMED = 3_000;
const STORE = process.env.BENCH_PROFILE_STORE ?? 'memory';
const STORE_NAMES: Record<string, string> = {
	memory: 'MemoryStore',
	redis: 'RedisStore',
	postgres: 'PostgresStore',
};
// The children's database (PostgreSQL), made by the parent: a schema a child.
const PG = process.env.MB_PROFILE_PG;

function openStore(): StateStore {
	if (STORE === 'redis') return new RedisStore(REDIS_URL, `prof-${process.pid}`);
	if (STORE === 'postgres' && PG)
		return new PostgresStore({
			...(JSON.parse(PG) as PostgresCredential),
			schema: `p${process.pid}`,
		});
	return new MemoryStore();
}
const out = (line = '') => process.stdout.write(`${line}\n`);

type Side = { cpu: number; self: Record<string, number> };

/** A function's name and where it is, its folder kept short (node_modules or runtime). */
function where(frame: { functionName: string; url: string; lineNumber: number }): string {
	const file = frame.url.replace(/.*\/(node_modules\/[^/]+|runtime)\//, '$1/');
	return `${frame.functionName || '(anonymous)'} ${file}${file ? `:${frame.lineNumber + 1}` : ''}`;
}

/** One side, in this process: µs a message of CPU, and of self time by function. */
async function profileSide(on: boolean): Promise<Side> {
	const store = openStore();
	const engine = benchEngine(store, on);
	const all = messages(UNTIMED + MESSAGES, 'p');
	const handle = async (list: typeof all) =>
		await handleConcurrently(async (e) => await engine.handle(e), list, 50, []);
	await handle(all.slice(0, UNTIMED));
	const session = new Session();
	session.connect();
	await session.post('Profiler.enable');
	await session.post('Profiler.setSamplingInterval', { interval: 100 });
	await session.post('Profiler.start');
	const started = process.cpuUsage();
	await handle(all.slice(UNTIMED));
	const used = process.cpuUsage(started);
	const { profile } = await session.post('Profiler.stop');
	const byNode = new Map<number, number>();
	profile.samples?.forEach((id, i) =>
		byNode.set(id, (byNode.get(id) ?? 0) + (profile.timeDeltas?.[i] ?? 0)),
	);
	const self: Record<string, number> = {};
	for (const node of profile.nodes) {
		const key = where(node.callFrame);
		self[key] = (self[key] ?? 0) + (byNode.get(node.id) ?? 0) / MESSAGES;
	}
	await store.close();
	return { cpu: (used.user + used.system) / MESSAGES, self };
}

/** Each side's runs, alternated, each in a process of its own (the JIT starts afresh). */
function runSides(): { off: Side[]; on: Side[] } {
	const sides = { off: [] as Side[], on: [] as Side[] };
	for (let i = 0; i < RUNS; i++)
		for (const side of ['off', 'on'] as const) {
			const env = { ...process.env, MB_PROFILE_SIDE: side };
			const text = execFileSync(process.execPath, [...process.execArgv, __filename], { env });
			sides[side].push(JSON.parse(text.toString()) as Side);
		}
	return sides;
}

function mean(sides: Side[], pick: (s: Side) => number): number {
	return sides.reduce((sum, s) => sum + pick(s), 0) / sides.length;
}

function report(): void {
	const { off, on } = runSides();
	const names = new Set([...off, ...on].flatMap((s) => Object.keys(s.self)));
	const rows = [...names].map((name) => {
		const [a, b] = [mean(off, (s) => s.self[name] ?? 0), mean(on, (s) => s.self[name] ?? 0)];
		return { name, a, b, more: b - a };
	});
	const sampled = (sides: Side[]) =>
		mean(sides, (s) => Object.values(s.self).reduce((x, y) => x + y, 0));
	out(
		`Counters off / on, ${STORE_NAMES[STORE] ?? STORE}, ${RUNS} processes a side of ${MESSAGES} messages: CPU ${mean(off, (s) => s.cpu).toFixed(1)} / ${mean(on, (s) => s.cpu).toFixed(1)} µs a message, main thread sampled ${sampled(off).toFixed(1)} / ${sampled(on).toFixed(1)}. Self time a message, the 25 functions that cost most more with the counters on:`,
	);
	out(
		table(
			rows
				.sort((x, y) => y.more - x.more)
				.slice(0, 25)
				.map((r) => ({
					function: r.name,
					'off µs': r.a.toFixed(2),
					'on µs': r.b.toFixed(2),
					'more µs': r.more.toFixed(2),
				})),
		),
	);
}

const child = process.env.MB_PROFILE_SIDE;
if (child) void profileSide(child === 'on').then((side) => out(JSON.stringify(side)));
else if (STORE === 'postgres')
	void createTestDatabase('profile').then(async (pg) => {
		process.env.MB_PROFILE_PG = JSON.stringify(pg);
		try {
			report();
		} finally {
			await dropTestDatabase(pg);
		}
	});
else report();
