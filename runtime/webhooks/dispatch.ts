import type { StateStore } from '../stores/types';

/**
 * Fewer executions under a burst: accepted deliveries wait in the workflow's dispatch queue, and
 * at most one execution starts per batch window, carrying every delivery queued since. When the
 * workflow is quiet the first delivery finds the window free and starts its own execution at
 * once, as without batching.
 */

function dispatchNamespace(scope: string): string {
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

/**
 * Starts executions from the dispatch queue, one at a time, for the trigger's own listener: each
 * takes every delivery kept and not yet run. An entry leaves the queue only once its execution
 * has finished, so deliveries kept when n8n was killed are started again when it comes back
 * (at least once; the Scenario node applies each message once whatever runs it).
 */
export class Dispatcher {
	private running = false;
	private again = false;

	constructor(
		private readonly store: StateStore,
		private readonly scope: string,
		/** Starts an execution with these items; resolves when it has finished. */
		private readonly run: (items: object[]) => Promise<void>,
		private readonly onError: (error: Error) => void,
	) {}

	/** Something was queued: start an execution now, or right after the one running. */
	kick(): void {
		if (this.running) {
			this.again = true;
			return;
		}
		void this.loop();
	}

	private async loop(): Promise<void> {
		this.running = true;
		const ns = dispatchNamespace(this.scope);
		try {
			do {
				this.again = false;
				for (;;) {
					const entries = await this.store.queued(ns, QUEUE, MAX_ITEMS);
					if (entries.length === 0) break;
					await this.run(entries.map((entry) => JSON.parse(entry.value) as object));
					await this.store.dequeue(
						ns,
						QUEUE,
						entries.map((e) => e.seq),
					);
				}
			} while (this.again);
		} catch (error) {
			// Left in the queue: the next delivery, or the next start, runs them.
			this.onError(error as Error);
		} finally {
			this.running = false;
		}
	}
}

/** Waits `ms`, or until `signal` aborts (then it may reject). */
export type Wait = (ms: number, signal: AbortSignal) => Promise<void>;

/**
 * Waits for an execution to end, or `ms` at most (a lost signal must not stop the queue). The
 * wait is aborted when the execution ends, so no timer outlives it. `wait` is the host's
 * cancellable sleep (n8n's `sleep` with a signal).
 */
export async function finishedOrAfter(
	done: Promise<unknown>,
	ms: number,
	wait: Wait,
): Promise<void> {
	const stop = new AbortController();
	const limit = wait(ms, stop.signal).catch(() => undefined);
	try {
		await Promise.race([done.then(() => undefined), limit]);
	} finally {
		stop.abort();
	}
}
