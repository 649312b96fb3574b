/**
 * The one loop that goes round again: when a compare-and-set found the record changed by another
 * writer (reload, decide again), or when a conversation has more work (the next message, the next
 * effect). Every such loop is bounded, so a bug or a storm of writers cannot spin for ever.
 */

/** Returned by a round to go round again. */
export const AGAIN = Symbol('again');

/**
 * The bounds, by what a round is. They differ because a round means different things:
 * - `write`: one step written against other writers (a timer firing, a release). Each failed
 *   round is a conflict; 50 in a row means the conversation is hot beyond reason, and the caller
 *   throws (the scheduled run records it and tries again on its next run).
 * - `rounds`: a conversation worked through (its inbox one message a round, its outbox one effect
 *   a round, a conflict or a reorder wait a round each). Not a retry count but a guard against a
 *   loop that never ends; what is left over is due work, picked up by the next run.
 * - `renewal`: renewing a lease while its effect is performed. Given up quietly after a few
 *   conflicts: the next renewal comes a third of a lease later.
 */
export const BOUNDS = { write: 50, rounds: 10_000, renewal: 5 } as const;

/** Runs `round` until it returns something other than AGAIN, at most `limit` times. */
export async function retry<T>(
	limit: number,
	round: (attempt: number) => Promise<T | typeof AGAIN>,
	exhausted: () => T,
): Promise<T> {
	for (let attempt = 1; attempt <= limit; attempt++) {
		const result = await round(attempt);
		if (result !== AGAIN) return result;
	}
	return exhausted();
}

/** The end of a `write` loop that never got its write in. */
export function keptChanging(key: string, doing: string): never {
	throw new Error(`Conversation ${key} kept changing under ${BOUNDS.write} attempts to ${doing}`);
}
