/**
 * Where state that must outlive an execution lives: delivery ids already seen, conversations,
 * pending timers. n8n runs executions concurrently, and in queue mode in several processes, so
 * every write is a claim or a compare-and-set; nothing relies on module memory or on workflow
 * static data (saved whole, last writer wins). One contract test suite runs against every
 * implementation.
 */
export interface Versioned {
	value: string;
	/** Starts at 1 and grows by one with every write. */
	version: number;
}

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
	 * Writes when the stored version is `expectedVersion` (0: the key must not exist). Returns the
	 * new version, or null when another writer got there first.
	 */
	write(
		namespace: string,
		key: string,
		value: string,
		expectedVersion: number,
	): Promise<number | null>;

	/** Deletes when the stored version is `expectedVersion`; false on a conflict. */
	remove(namespace: string, key: string, expectedVersion: number): Promise<boolean>;

	/** Marks `key` due at `dueAt` (ms since epoch), or clears it with null. */
	setDue(namespace: string, key: string, dueAt: number | null): Promise<void>;

	/** Keys due at or before `now`, earliest first. */
	due(namespace: string, now: number, limit: number): Promise<string[]>;

	close(): Promise<void>;
}
