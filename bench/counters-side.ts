/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { ScenarioEngine, type MessageReceived } from '../runtime/scenarios';
import type { StateStore } from '../runtime/stores';
import { HistoryApi } from './history-api';
import { handleConcurrently } from './lib';
import { clients, order } from './order-traffic';
import { chunkedSide, type ChunkedSide } from './overhead-verdict';

/** A side of the counters benches (counters-overhead.ts, counters-apart.ts, counters-parts.ts). */
export const CONCURRENCY = 50;
export const CHUNKS = Number(process.env.BENCH_COUNTER_CHUNKS ?? 32);
/** The messages a side times, after every client's first three (untimed). */
export const COUNTER_MESSAGES = Number(process.env.BENCH_COUNTER_MESSAGES ?? 8_000);

export interface CounterStore {
	name: string;
	/** A fresh store per side and round (`i` tells them apart). */
	open(i: number): StateStore;
}

/** The counters benches' engine: the order-status example on `store`, counting or not. */
export function benchEngine(store: StateStore, analytics: boolean): ScenarioEngine {
	return new ScenarioEngine({
		scenarios: [order],
		store,
		api: new HistoryApi(clients),
		clock: { now: () => Date.now() },
		...(analytics ? {} : { analytics: false }),
	});
}

/**
 * A side: `store`, its engine counting or not, `untimed` events handled at once, then chunks.
 * `adjust`: a change made to the engine before it runs (counters-parts.ts).
 */
export async function side(
	store: StateStore,
	events: MessageReceived[],
	untimed: number,
	analytics: boolean,
	adjust?: (engine: ScenarioEngine) => void,
): Promise<ChunkedSide> {
	const engine = benchEngine(store, analytics);
	adjust?.(engine);
	const handle = async (list: MessageReceived[]) =>
		await handleConcurrently(async (e) => await engine.handle(e), list, CONCURRENCY, []);
	await handle(events.slice(0, untimed));
	return chunkedSide(events.slice(untimed), CHUNKS, handle, async () => await store.close());
}
