import type { LostWrites } from './loss';
import type { ConversationAt, ConversationRead, QueuedEntry, Versioned } from './reads';

export type { ConversationAt, QueuedEntry, Versioned } from './reads';

export interface WriteOptions {
	/**
	 * The key's mark in the namespace's due index, written in the same atomic step as the value:
	 * a number sets it, null clears it, undefined leaves it as it is.
	 */
	dueAt?: number | null;
	/** When the record may be forgotten (ms since epoch); it then reads as absent. */
	expiresAt?: number;
	/**
	 * Queue entries removed in the same atomic step, only if the write happens: a conversation's
	 * step takes the message it applied out of the inbox with it.
	 */
	dequeue?: { namespace: string; queue: string; seqs: readonly number[] };
	/**
	 * Increments to named counters, applied in the same atomic step and only if the write happens:
	 * a step and what it counts are saved together, so a lost compare-and-set, a retry or a crash
	 * never loses or doubles a count.
	 */
	counters?: { namespace: string; hashes: readonly CounterIncrements[] };
}

/**
 * Increments to the fields of one counter hash (e.g. one scenario version's day). A Map: a step
 * names fields from hundreds (states, edges, minutes), which an object pays for in hidden classes.
 */
export interface CounterIncrements {
	key: string;
	incr: ReadonlyMap<string, number>;
	/** When the hash may be forgotten (ms since epoch); each write sets it. */
	expiresAt: number;
}

/** One counter hash as read. */
export interface CounterHash {
	key: string;
	fields: Record<string, number>;
}

/**
 * Where state that must outlive an execution lives: delivery ids already seen, conversations,
 * their inboxes of accepted messages, pending timers. n8n runs executions concurrently, and in
 * queue mode in several processes, so every write is a claim, a compare-and-set or one atomic
 * append; nothing relies on module memory or on workflow static data (saved whole, last writer
 * wins). One contract test suite runs against every implementation.
 */
export interface StateStore {
	/**
	 * Records `id` in `namespace` unless it is there (and not expired). True for the one caller
	 * that recorded it, false for every other, concurrent or later.
	 */
	claim(namespace: string, id: string, ttlMs: number): Promise<boolean>;

	/** Forgets a claim, so that the id can be claimed again (for work that failed). */
	release(namespace: string, id: string): Promise<void>;

	read(namespace: string, key: string): Promise<Versioned | undefined>;

	/**
	 * Writes when the stored version is `expectedVersion` (0: the key must not exist, or has
	 * expired). Returns the new version, or null when another writer got there first.
	 */
	write(
		namespace: string,
		key: string,
		value: string,
		expectedVersion: number,
		options?: WriteOptions,
	): Promise<number | null>;

	/** Deletes when the stored version is `expectedVersion`; false on a conflict. */
	remove(namespace: string, key: string, expectedVersion: number): Promise<boolean>;

	/** Marks `key` due at `dueAt` (ms since epoch), or clears it with null. */
	setDue(namespace: string, key: string, dueAt: number | null): Promise<void>;

	/**
	 * Takes `key` out of the due index when its mark is due and the key has no live record, as one
	 * step: a record written meanwhile (a new conversation under the key, its mark ahead) keeps it.
	 */
	dropDue(namespace: string, key: string): Promise<void>;

	/** Keys due at or before `now`, earliest first. */
	due(namespace: string, now: number, limit: number): Promise<string[]>;

	/**
	 * Appends `value` to `queue` unless one of `ids` is claimed in `namespace`; the claims (for
	 * `ttlMs`) and the entry are one atomic write, so an accepted entry is never lost to a crash
	 * between the two. Returns the entry's seq, or null for a duplicate.
	 */
	enqueue(
		namespace: string,
		queue: string,
		ids: readonly string[],
		value: string,
		ttlMs: number,
	): Promise<number | null>;

	/** The queue's entries, lowest seq first. */
	queued(namespace: string, queue: string, limit: number): Promise<QueuedEntry[]>;

	/**
	 * `read(recordNamespace, key)` and `queued(inboxNamespace, queue, limit)` in one round trip (one
	 * statement where the store has them): the engine reads both before each step. The inbox is
	 * read no later than the record (or in the same snapshot), as two calls in that order would.
	 */
	readConversation(at: ConversationAt): Promise<ConversationRead>;

	/** Removes and returns the queue's first entries, in one atomic step: each goes to one taker. */
	take(namespace: string, queue: string, limit: number): Promise<QueuedEntry[]>;

	/** Removes entries from a queue (done with them). */
	dequeue(namespace: string, queue: string, seqs: readonly number[]): Promise<void>;

	/** Queues holding an entry appended at or before `before`, the oldest entry first. */
	stalled(namespace: string, before: number, limit: number): Promise<string[]>;

	/** The live counter hashes of a namespace whose key starts with `prefix`, by key. */
	counters(namespace: string, prefix: string): Promise<CounterHash[]>;

	/**
	 * Notes `key` as active at `at` in `namespace`: a later time replaces an earlier one, never the
	 * reverse. A note may be forgotten once `ttlMs` has passed since its time.
	 */
	noteActive(namespace: string, key: string, at: number, ttlMs: number): Promise<void>;

	/** Keys noted active at or after `since`, the latest first. */
	active(namespace: string, since: number, limit: number): Promise<string[]>;

	/**
	 * Writes this store acknowledged and no longer holds, once it has found so: a Redis restarted
	 * from an older snapshot or with no persistence, a SQLite file restored from an older backup.
	 * Each store keeps a marker with its data and a copy of it where that loss does not reach (see
	 * loss.ts); undefined while none is found. A store that cannot lose writes without losing the
	 * process (memory) never finds one.
	 */
	lostWrites(): Promise<LostWrites | undefined>;

	close(): Promise<void>;
}
