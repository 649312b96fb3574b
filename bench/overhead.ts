/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { copyFileSync } from 'node:fs';
import path from 'node:path';

import { ScenarioEngine, type CompiledScenario, type MessageReceived } from '../runtime/scenarios';
import { HealingSession } from '../runtime/scenarios/engine/healing/session';
import { SqliteStore } from '../runtime/stores/sqlite';
import { HistoryApi } from './history-api';
import { abbaRounds, type RunResult } from './overhead-verdict';
import { CLIENTS, clients, messages } from './order-traffic';

/**
 * What the overhead benches share (pinning-overhead.ts, split-overhead.ts): conversations started
 * on a seed file, then one side against the other in the same run, each run on a copy of it
 * (overhead-verdict.ts: the rounds and the verdict).
 */
export const CONCURRENCY = 50;
/** The messages that start every client's conversation (the first three of each). */
export const START = 3 * CLIENTS;

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

/**
 * `rounds` rounds of both sides in ABBA order (overhead-verdict.ts), each run on a fresh copy of
 * its side's seed file.
 */
export async function alternate<R extends RunResult>(
	dir: string,
	rounds: number,
	sides: readonly [Side<R>, Side<R>],
): Promise<[R[], R[]]> {
	return await abbaRounds(rounds, async (i, round) => {
		const file = path.join(dir, `r${round}-${i}.sqlite`);
		copyFileSync(sides[i].seed, file);
		return await sides[i].run(file);
	});
}

export interface Side<R> {
	seed: string;
	run(file: string): Promise<R>;
}
