/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { copyFileSync } from 'node:fs';
import path from 'node:path';

import { ScenarioEngine, type CompiledScenario, type MessageReceived } from '../runtime/scenarios';
import { SqliteStore } from '../runtime/stores/sqlite';
import { HistoryApi } from './history-api';
import { CLIENTS, clients, messages } from './order-traffic';

/**
 * What the overhead benches share (pinning-overhead.ts, split-overhead.ts): conversations started
 * on a seed file, then one side against the other in the same run, alternately, on copies of it.
 */
export const CONCURRENCY = 50;
/** The messages that start every client's conversation (the first three of each). */
export const START = 3 * CLIENTS;

export interface RunResult {
	perSecond: number;
	/** This process's CPU time per message. */
	cpuUs: number;
}

const engineOn = (store: SqliteStore, live: CompiledScenario) =>
	new ScenarioEngine({
		scenarios: [live],
		store,
		api: new HistoryApi(clients),
		clock: { now: () => Date.now() },
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

/**
 * `rounds` rounds of both sides, each on a fresh copy of its seed file; each side goes first in
 * every other round, so the process warming up favours neither.
 */
export async function alternate<R extends RunResult>(
	dir: string,
	rounds: number,
	sides: readonly [Side<R>, Side<R>],
): Promise<[R[], R[]]> {
	const results: [R[], R[]] = [[], []];
	for (let round = 0; round < rounds; round++) {
		const order = round % 2 === 0 ? [0, 1] : [1, 0];
		for (const i of order) {
			const file = path.join(dir, `r${round}-${i}.sqlite`);
			copyFileSync(sides[i].seed, file);
			results[i].push(await sides[i].run(file));
		}
	}
	return results;
}

export interface Side<R> {
	seed: string;
	run(file: string): Promise<R>;
}

const best = (runs: RunResult[]) => Math.max(...runs.map((r) => r.perSecond));
const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
/** The median over rounds of each round's ratio: load from elsewhere that lasts a round cancels. */
const pairedMedian = (ratio: (i: number) => number, rounds: number) =>
	median(Array.from({ length: rounds }, (_, i) => ratio(i)));
const leastCpu = (runs: RunResult[]) => Math.min(...runs.map((r) => r.cpuUs));

/**
 * The table's row: each side's best throughput and least CPU, and `on` over `off` by each;
 * `short` names the `on` side in the ratios.
 */
export function overheadRow(
	labels: { off: string; on: string; short: string },
	off: RunResult[],
	on: RunResult[],
): Record<string, string> {
	const ratio = best(on) / best(off);
	const cpuRatio = leastCpu(off) / leastCpu(on);
	const within = [ratio, cpuRatio].filter((r) => r >= 0.95).length;
	return {
		[`${labels.off}, messages/s`]: Math.round(best(off)).toLocaleString('en'),
		[`${labels.on}, messages/s`]: Math.round(best(on)).toLocaleString('en'),
		[`${labels.short} / not`]: ratio.toFixed(3),
		[`CPU µs/message not / ${labels.short}`]: `${leastCpu(off).toFixed(0)} / ${leastCpu(on).toFixed(0)}`,
		[`by CPU, ${labels.short} / not`]: cpuRatio.toFixed(3),
		'within 5 %': within === 2 ? 'yes' : within === 1 ? 'one of two' : 'NO',
		'round by round, median, wall / CPU': [
			pairedMedian((i) => on[i].perSecond / off[i].perSecond, on.length),
			pairedMedian((i) => off[i].cpuUs / on[i].cpuUs, on.length),
		]
			.map((r) => r.toFixed(3))
			.join(' / '),
	};
}
