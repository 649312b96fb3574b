/* eslint-disable @n8n/community-nodes/no-restricted-imports -- benchmark tooling, never loaded by n8n */
import { copyFileSync } from 'node:fs';

import { ScenarioEngine, type CompiledScenario } from '../runtime/scenarios';
import { HealingSession } from '../runtime/scenarios/engine/healing/session';
import { SqliteStore } from '../runtime/stores/sqlite';
import { HistoryApi } from './history-api';
import { handleConcurrently } from './lib';
import { chunkedSide, type ChunkedSide } from './overhead-verdict';
import { CLIENTS, clients, messages } from './order-traffic';

/**
 * What the overhead benches share (pinning-overhead.ts, split-overhead.ts): conversations started
 * on a seed file, then one side against the other in the same run, each side on a copy of it
 * (overhead-verdict.ts: the chunks in turns and the verdict).
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

/**
 * A side on a fresh copy of `seed` (at `file`), its engine's live scenario `live`: the `count`
 * messages after the start, in `chunks` chunks, `CONCURRENCY` in flight.
 */
export function sideOn(
	seed: string,
	file: string,
	live: CompiledScenario,
	count: number,
	chunks: number,
): ChunkedSide {
	copyFileSync(seed, file);
	const store = new SqliteStore(file);
	const engine = engineOn(store, live);
	return chunkedSide(
		messages(START + count, 'm').slice(START),
		chunks,
		async (chunk) =>
			await handleConcurrently(async (e) => await engine.handle(e), chunk, CONCURRENCY, []),
		async () => await store.close(),
	);
}
