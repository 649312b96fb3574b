/**
 * Writes a store acknowledged and no longer holds: what a Redis restarted from an older snapshot
 * (or with no persistence at all) or a SQLite file restored from an older backup comes back
 * without. Each store keeps a marker written with its data and a copy of it where the loss does
 * not reach (the process's memory for Redis, a file beside the database for SQLite); a marker
 * older than its copy is the loss.
 */
export interface LostWrites {
	/** When the store found it (ms). */
	foundAt: number;
	/** The earliest acknowledged write that may be gone (ms): the marker's time as it came back. */
	since: number;
	/** What came back, in words (for the report). */
	detail: string;
}

/** The words of a loss for logs and outputs: which store, from when, what happens now. */
export function lossNotice(where: string, loss: LostWrites): string {
	return `The state store at ${where} lost writes it had acknowledged (${loss.detail}): everything written since ${new Date(loss.since).toISOString()} may be gone. Conversations it no longer knows are rebuilt from the service's message history; what cannot be rebuilt is reported per conversation.`;
}

/** A loss another process found is looked for at most this often (one read per process). */
export const SHARED_LOSS_EVERY_MS = 50;

/**
 * A loss another process found and wrote beside the data (`value`, as JSON), when this process
 * has to take it in: found after this process began (a process begun later starts a healing
 * session of its own anyway) and later than the loss it already holds.
 */
export function sharedLoss(
	value: string | null | undefined,
	began: number,
	held: LostWrites | undefined,
): LostWrites | undefined {
	if (!value) return undefined;
	const loss = JSON.parse(value) as LostWrites;
	return loss.foundAt > began && loss.foundAt > (held?.foundAt ?? 0) ? loss : undefined;
}
