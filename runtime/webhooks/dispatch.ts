import type { StateStore } from '../stores/types';

/**
 * Fewer executions under a burst: accepted deliveries wait in the workflow's dispatch queue, and
 * at most one execution starts per batch window, carrying every delivery queued since. When the
 * workflow is quiet the first delivery finds the window free and starts its own execution at
 * once, as without batching.
 */

export function dispatchNamespace(scope: string): string {
	return `dispatch:${scope}`;
}

const QUEUE = 'deliveries';
const RUNNER = 'runner';
/** The default batch window: short enough to be unnoticed, long enough to gather a burst. */
export const DEFAULT_BATCH_WINDOW_MS = 250;
/** Items one execution carries at most; the rest go with the next. */
const MAX_ITEMS = 1000;

/**
 * Queues an accepted delivery's item. With `claims`, the claims and the entry are one write (the
 * delivery's record); null when one was claimed before (a redelivery).
 */
export async function queueForExecution(
	store: StateStore,
	scope: string,
	item: object,
	claims: readonly string[],
	ttlMs: number,
): Promise<number | null> {
	return await store.enqueue(dispatchNamespace(scope), QUEUE, claims, JSON.stringify(item), ttlMs);
}

/**
 * What an accepted delivery starts: every item queued since the last execution when it opens the
 * batch window, nothing otherwise. A delivery that finds the window taken waits for it to close
 * (once) and tries again; if another delivery opens the next window first, that one takes every
 * item queued before its claim, this delivery's included. So a delivery waits at most one window
 * for its execution, and n8n keeps each waiting request's resources for no longer than that.
 */
export async function takeBatch(
	store: StateStore,
	scope: string,
	timing: { windowMs: number; sleep: (ms: number) => Promise<void> },
): Promise<object[]> {
	const ns = dispatchNamespace(scope);
	for (let round = 0; round < 2; round++) {
		if (await store.claim(ns, RUNNER, timing.windowMs)) {
			const taken = await store.take(ns, QUEUE, MAX_ITEMS);
			return taken.map((entry) => JSON.parse(entry.value) as object);
		}
		if (round === 0) await timing.sleep(timing.windowMs);
	}
	return [];
}
