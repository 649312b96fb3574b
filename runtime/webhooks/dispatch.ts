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
 * What the delivery queued as `seq` starts: every item queued since the last execution when this
 * delivery opens the batch window, nothing when another delivery's execution took (or will take)
 * its item. Waits at most a few windows; the service has been answered already.
 */
export async function takeBatch(
	store: StateStore,
	scope: string,
	seq: number,
	timing: { windowMs: number; sleep: (ms: number) => Promise<void> },
): Promise<object[]> {
	const ns = dispatchNamespace(scope);
	for (let round = 0; round < 40; round++) {
		if (await store.claim(ns, RUNNER, timing.windowMs)) {
			const taken = await store.take(ns, QUEUE, MAX_ITEMS);
			return taken.map((entry) => JSON.parse(entry.value) as object);
		}
		await timing.sleep(timing.windowMs);
		// Entries are taken from the front: ours is gone once the head is past it.
		const [head] = await store.queued(ns, QUEUE, 1);
		if (!head || head.seq > seq) return [];
	}
	return [];
}
