import type {
	QueuedEntry,
	StateStore,
	Versioned as StoredVersioned,
	WriteOptions,
} from '../../stores/types';
import { COUNTERS_NAMESPACE, increments } from '../analytics/counter-keys';
import { decodeRecord, encodeRecord, unfinished, type ConversationRecord } from './record';
import { stepTally } from '../analytics/tally';

/**
 * A record with the version it was read or written at: what the next compare-and-set writes over.
 * Read, the record may be missing (version 0).
 */
export type Versioned<R = ConversationRecord> = { record: R; version: number };
/** A record as read: `moved` when messages for it were carried into its inbox by the read. */
export type Loaded = Versioned<ConversationRecord | undefined> & { moved?: boolean };

/**
 * The one place conversation records are read and written. Every write is a compare-and-set that
 * carries, in the same atomic step, the record's mark in the due index (its silence timer, or a
 * check on an effect left unfinished) and its expiry, so a crash between the two cannot strand a
 * timer or an effect.
 */
export class ConversationStore {
	constructor(
		private readonly store: StateStore,
		readonly namespace: string,
		private readonly options: {
			/** How long a conversation is kept after its last change. */
			retentionMs: number;
			/** When to look again at an effect left pending with nobody performing it. */
			recheckMs: number;
			/** Count the steps (analytics) under this scope, each day kept this long; none without. */
			counters?: { scope: string; daysKept: number };
		},
	) {}

	/** Reads a key absent here from where older versions kept it (engine/carry-over.ts). */
	fallback?: (key: string) => Promise<Loaded>;

	/**
	 * Readies what stepping a record read needs (the definition of the older version it is pinned
	 * to, engine/versions/pinned.ts).
	 */
	prepare?: (record: ConversationRecord) => Promise<void> | undefined;

	/**
	 * Called before a step's write that starts a conversation or puts it on another scenario
	 * version (engine/versions/book.ts keeps which conversations run on which version).
	 */
	onVersion?: (key: string, record: ConversationRecord, now: number) => Promise<void>;

	async read(key: string): Promise<Loaded> {
		return await this.loaded(key, await this.store.read(this.namespace, key));
	}

	/**
	 * The record and the first `limit` entries of its inbox (`queue` in `inboxNamespace`), read
	 * together: one round trip to the store.
	 */
	async readWithInbox(
		key: string,
		inboxNamespace: string,
		queue: string,
		limit: number,
	): Promise<{ loaded: Loaded; queued: QueuedEntry[] }> {
		const read = await this.store.readConversation({
			recordNamespace: this.namespace,
			key,
			inboxNamespace,
			queue,
			limit,
		});
		return { loaded: await this.loaded(key, read.record), queued: read.queued };
	}

	private async loaded(key: string, found: StoredVersioned | undefined): Promise<Loaded> {
		const loaded: Loaded = found
			? { record: decodeRecord(found.value), version: found.version }
			: this.fallback
				? await this.fallback(key)
				: { record: undefined, version: 0 };
		// Most reads need nothing readied: they are not held up by an await.
		const readying = loaded.record && this.prepare?.(loaded.record);
		if (readying) await readying;
		return loaded;
	}

	/**
	 * One compare-and-set; null when another writer got there first (the caller reloads).
	 * `dequeue`: the inbox entries the write applied, taken out with it. `step`: the write saves a
	 * step over `before`, whose counts (analytics/tally.ts) go in the same write.
	 */
	async write(
		key: string,
		record: ConversationRecord,
		expectedVersion: number,
		now: number,
		dequeue?: WriteOptions['dequeue'],
		step?: { before: ConversationRecord | undefined },
	): Promise<Versioned | null> {
		const counters = step && this.countersOf(step.before, record, now);
		if (step && this.onVersion && startsOrMoves(step.before, record))
			await this.onVersion(key, record, now);
		const version = await this.store.write(
			this.namespace,
			key,
			encodeRecord(record),
			expectedVersion,
			{
				dueAt: this.dueAt(record, now),
				expiresAt: now + this.options.retentionMs,
				...(dequeue ? { dequeue } : {}),
				...(counters ? { counters } : {}),
			},
		);
		return version === null ? null : { record, version };
	}

	private countersOf(
		before: ConversationRecord | undefined,
		after: ConversationRecord,
		now: number,
	): WriteOptions['counters'] {
		const options = this.options.counters;
		if (!options) return undefined;
		const counts = stepTally(before, after, now);
		if (counts.length === 0) return undefined;
		const hashes = increments(options.scope, counts, now, options.daysKept);
		return { namespace: COUNTERS_NAMESPACE, hashes };
	}

	/** Keys whose timer or unfinished effect is due at `now`. */
	async due(now: number, limit: number): Promise<string[]> {
		return await this.store.due(this.namespace, now, limit);
	}

	/** The key's due mark goes, unless a record was written under the key meanwhile. */
	async dropDue(key: string): Promise<void> {
		await this.store.dropDue(this.namespace, key);
	}

	/**
	 * The earliest moment the scheduled run must look at the record: its timer, a lease running
	 * out, or a pending effect that nobody is performing (its worker died before starting it).
	 */
	private dueAt(record: ConversationRecord, now: number): number | null {
		const times: number[] = [];
		if (record.timer) times.push(record.timer.dueAt);
		for (const entry of record.outbox.filter(unfinished)) {
			times.push(entry.lease ? entry.lease.until : now + this.options.recheckMs);
		}
		return times.length > 0 ? Math.min(...times) : null;
	}
}

/** Whether a step starts a conversation or puts it on another scenario or version. */
function startsOrMoves(before: ConversationRecord | undefined, after: ConversationRecord): boolean {
	if (!before || before.ended) return !after.ended;
	return (
		before.scenario.id !== after.scenario.id || before.scenario.version !== after.scenario.version
	);
}
