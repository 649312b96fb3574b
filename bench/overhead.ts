/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { ScenarioEngine, type CompiledScenario, type MessageReceived } from '../runtime/scenarios';
import { HealingSession } from '../runtime/scenarios/engine/healing/session';
import { SqliteStore } from '../runtime/stores/sqlite';
import { HistoryApi } from './history-api';
import { CLIENTS, clients, messages } from './order-traffic';

/**
 * What the overhead benches share (pinning-overhead.ts, split-overhead.ts): conversations started
 * on a seed file, then one side against the other in the same run, many short rounds in ABBA
 * order, each run on a copy of it; the verdict is the median of the rounds' CPU ratios.
 */
export const CONCURRENCY = 50;
/** The messages that start every client's conversation (the first three of each). */
export const START = 3 * CLIENTS;

export interface RunResult {
	perSecond: number;
	/** This process's CPU time per message. */
	cpuUs: number;
}

/**
 * When the process began serving these conversations, as healing sees it: before the seed was
 * written, so no run heals them as a restarted process would. One that did would read every
 * conversation's history on its first message (a read and two writes more each) while the seed
 * is under a minute old, and not after (healer.ts: a history with no client messages turns
 * healing off only for older records): rounds would do different work by when they ran, and the
 * two runs of the round that crossed that minute would differ.
 */
const servingSince = Date.now();

const engineOn = (store: SqliteStore, live: CompiledScenario) =>
	new ScenarioEngine({
		scenarios: [live],
		store,
		api: new HistoryApi(clients),
		clock: { now: () => Date.now() },
		healing: { session: new HealingSession(servingSince) },
	});

/** A SQLite file where every client's conversation was started on `scenario`. */
export async function seedFile(file: string, scenario: CompiledScenario): Promise<void> {
	const store = new SqliteStore(file);
	const engine = engineOn(store, scenario);
	for (const event of messages(START, 'm')) await engine.handle(event);
	await store.close();
}

/** The `count` messages after the start, handled by an engine whose live scenario is `live`. */
export async function handleOn(file: string, live: CompiledScenario, count: number) {
	const store = new SqliteStore(file);
	const result = await handleAll(engineOn(store, live), messages(START + count, 'm').slice(START));
	await store.close();
	return result;
}

async function handleAll(engine: ScenarioEngine, events: MessageReceived[]): Promise<RunResult> {
	let next = 0;
	const cpu = process.cpuUsage();
	const started = performance.now();
	await Promise.all(
		Array.from({ length: CONCURRENCY }, async () => {
			while (next < events.length) await engine.handle(events[next++]);
		}),
	);
	const perSecond = events.length / ((performance.now() - started) / 1000);
	const used = process.cpuUsage(cpu);
	return { perSecond, cpuUs: (used.user + used.system) / events.length };
}

// A full collection before each run, outside its time: the garbage one side left is not collected
// in the other's time (the flag, set at run time, is what `node --expose-gc` sets at start).
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/**
 * `rounds` rounds of both sides, each on a fresh copy of its seed file, in ABBA order (off, on,
 * on, off, …): a slow drift of the machine or of the process warming up favours neither.
 */
export async function alternate<R extends RunResult>(
	dir: string,
	rounds: number,
	sides: readonly [Side<R>, Side<R>],
): Promise<[R[], R[]]> {
	const results: [R[], R[]] = [[], []];
	for (let round = 0; round < rounds; round++) {
		for (const i of round % 2 === 0 ? [0, 1] : [1, 0]) {
			const file = path.join(dir, `r${round}-${i}.sqlite`);
			copyFileSync(sides[i].seed, file);
			collectGarbage();
			results[i].push(await sides[i].run(file));
		}
	}
	return results;
}

export interface Side<R> {
	seed: string;
	run(file: string): Promise<R>;
}

const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * A 95 % interval for the median of `values`, from order statistics (no assumption about how the
 * values spread): the k-th value from either end, k the largest with P(Binomial(n, ½) < k) at
 * most 2.5 %. Under 6 values no such k: the whole range.
 */
function medianInterval(values: number[]): [number, number] {
	const sorted = [...values].sort((a, b) => a - b);
	const n = sorted.length;
	let [k, below, term] = [0, 0, 0.5 ** n]; // term: P(X = k)
	while (2 * (below + term) <= 0.05)
		[below, k, term] = [below + term, k + 1, (term * (n - k)) / (k + 1)];
	return k === 0 ? [sorted[0], sorted[n - 1]] : [sorted[k - 1], sorted[n - k]];
}

const best = (runs: RunResult[]) => Math.max(...runs.map((r) => r.perSecond));

/**
 * The table's row. The verdict is the median over rounds of each round's CPU ratio (off's CPU
 * time per message over on's): the process is CPU-bound (SQLite is synchronous, the API a fake
 * in it), so that ratio is the throughput ratio, and other processes' load, which stretches wall
 * time, moves it little; a load lasting a round or two moves the median of the rounds little too.
 * Within 5 % is said only when the median's 95 % interval is above 0.95, not within only when it
 * is below: a run that cannot tell says so. `short` names the `on` side in the ratios.
 */
export function overheadRow(
	labels: { off: string; on: string; short: string },
	off: RunResult[],
	on: RunResult[],
): Record<string, string> {
	const rounds = off.map((_, i) => i);
	const byCpu = rounds.map((i) => off[i].cpuUs / on[i].cpuUs);
	const byWall = rounds.map((i) => on[i].perSecond / off[i].perSecond);
	const [low, high] = medianInterval(byCpu);
	const cpu = (runs: RunResult[]) => median(runs.map((r) => r.cpuUs)).toFixed(0);
	return {
		[`CPU µs/message, ${labels.off} / ${labels.on}`]: `${cpu(off)} / ${cpu(on)}`,
		[`verdict: ${labels.short} / not, by CPU, median of ${rounds.length} rounds`]:
			median(byCpu).toFixed(3),
		'its 95 % interval': `${low.toFixed(3)} to ${high.toFixed(3)}`,
		'within 5 %': low >= 0.95 ? 'yes' : high < 0.95 ? 'NO' : 'not shown (0.95 inside)',
		'by wall, median of rounds': median(byWall).toFixed(3),
		[`best messages/s, ${labels.off} / ${labels.on}`]: `${Math.round(best(off)).toLocaleString('en')} / ${Math.round(best(on)).toLocaleString('en')}`,
	};
}
