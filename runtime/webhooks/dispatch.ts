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
 * What an accepted delivery starts: every item queued and not yet taken, its own included unless
 * another delivery's execution took it already; nothing then. One atomic take, no waiting: under
 * a burst, deliveries recorded while n8n was busy go together in one execution, and a quiet
 * workflow still gets one execution per delivery.
 */
export async function takeBatch(store: StateStore, scope: string): Promise<object[]> {
	const taken = await store.take(dispatchNamespace(scope), QUEUE, MAX_ITEMS);
	return taken.map((entry) => JSON.parse(entry.value) as object);
}
