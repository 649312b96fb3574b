import type { ConversationAt, ConversationRead } from './reads';
import type {
	CounterHash,
	CounterIncrements,
	QueuedEntry,
	StateStore,
	Versioned,
	WriteOptions,
} from './types';

type Stored = Versioned & { expiresAt?: number };
type CounterFields = { fields: Map<string, number>; expiresAt: number };

/** A store in this process's memory: for tests, the CLI and single-shot runs. Lost on restart. */
export class MemoryStore implements StateStore {
	private claims = new Map<string, number>();
	private records = new Map<string, Stored>();
	private dueAt = new Map<string, Map<string, number>>();
	private queues = new Map<string, Map<string, Array<QueuedEntry>>>();
	private notes = new Map<string, Map<string, { at: number; expiresAt: number }>>();
	private seq = 0;
	/** Counter hashes by namespace, then key. */
	private counterHashes = new Map<string, Map<string, CounterFields>>();

	constructor(private readonly now: () => number = () => Date.now()) {}

	async claim(namespace: string, id: string, ttlMs: number): Promise<boolean> {
		return this.claimAll(namespace, [id], ttlMs);
	}

	private claimAll(namespace: string, ids: readonly string[], ttlMs: number): boolean {
		const now = this.now();
		const keys = ids.map((id) => `${namespace}\u0000${id}`);
		if (keys.some((key) => (this.claims.get(key) ?? 0) > now)) return false;
		for (const key of keys) this.claims.set(key, now + ttlMs);
		return true;
	}

	async release(namespace: string, id: string): Promise<void> {
		this.claims.delete(`${namespace}\u0000${id}`);
	}

	private live(id: string): Stored | undefined {
		const found = this.records.get(id);
		return found && (found.expiresAt ?? Infinity) > this.now() ? found : undefined;
	}

	async read(namespace: string, key: string): Promise<Versioned | undefined> {
		const found = this.live(`${namespace}\u0000${key}`);
		return found && { value: found.value, version: found.version };
	}

	async write(
		namespace: string,
		key: string,
		value: string,
		expectedVersion: number,
		options: WriteOptions = {},
	): Promise<number | null> {
		const id = `${namespace}\u0000${key}`;
		if ((this.live(id)?.version ?? 0) !== expectedVersion) return null;
		// An expired record's version still grows, so a writer that read it long ago cannot win.
		const version = (this.records.get(id)?.version ?? 0) + 1;
		this.records.set(id, { value, version, expiresAt: options.expiresAt });
		if (options.dueAt !== undefined) await this.setDue(namespace, key, options.dueAt);
		const taken = options.dequeue;
		if (taken) await this.dequeue(taken.namespace, taken.queue, taken.seqs);
		const counted = options.counters;
		if (counted) this.count(counted.namespace, counted.hashes);
		return version;
	}

	async remove(namespace: string, key: string, expectedVersion: number): Promise<boolean> {
		const id = `${namespace}\u0000${key}`;
		if ((this.live(id)?.version ?? 0) !== expectedVersion) return false;
		this.records.delete(id);
		this.dueAt.get(namespace)?.delete(key);
		return true;
	}

	async setDue(namespace: string, key: string, dueAt: number | null): Promise<void> {
		let index = this.dueAt.get(namespace);
		if (!index) this.dueAt.set(namespace, (index = new Map()));
		if (dueAt === null) index.delete(key);
		else index.set(key, dueAt);
	}

	async dropDue(namespace: string, key: string): Promise<void> {
		const index = this.dueAt.get(namespace);
		const at = index?.get(key);
		if (at === undefined || at > this.now() || this.live(`${namespace}\u0000${key}`)) return;
		index?.delete(key);
	}

	async due(namespace: string, now: number, limit: number): Promise<string[]> {
		return [...(this.dueAt.get(namespace) ?? new Map<string, number>()).entries()]
			.filter(([, at]) => at <= now)
			.sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1))
			.slice(0, limit)
			.map(([key]) => key);
	}

	private queuesOf(namespace: string): Map<string, QueuedEntry[]> {
		let queues = this.queues.get(namespace);
		if (!queues) this.queues.set(namespace, (queues = new Map()));
		return queues;
	}

	async enqueue(
		namespace: string,
		queue: string,
		ids: readonly string[],
		value: string,
		ttlMs: number,
	): Promise<number | null> {
		if (!this.claimAll(namespace, ids, ttlMs)) return null;
		const queues = this.queuesOf(namespace);
		const entries = queues.get(queue) ?? [];
		const entry = { seq: ++this.seq, value, at: this.now() };
		queues.set(queue, [...entries, entry]);
		return entry.seq;
	}

	async queued(namespace: string, queue: string, limit: number): Promise<QueuedEntry[]> {
		return (this.queuesOf(namespace).get(queue) ?? []).slice(0, limit).map((e) => ({ ...e }));
	}

	async readConversation(at: ConversationAt): Promise<ConversationRead> {
		const { recordNamespace, key, inboxNamespace, queue, limit } = at;
		const queued = await this.queued(inboxNamespace, queue, limit);
		return { record: await this.read(recordNamespace, key), queued };
	}

	async take(namespace: string, queue: string, limit: number): Promise<QueuedEntry[]> {
		// No await between reading and removing: one taker per entry.
		const queues = this.queuesOf(namespace);
		const entries = queues.get(queue) ?? [];
		const taken = entries.slice(0, limit);
		if (entries.length > taken.length) queues.set(queue, entries.slice(taken.length));
		else queues.delete(queue);
		return taken.map((e) => ({ ...e }));
	}

	async dequeue(namespace: string, queue: string, seqs: readonly number[]): Promise<void> {
		const queues = this.queuesOf(namespace);
		const left = (queues.get(queue) ?? []).filter((e) => !seqs.includes(e.seq));
		if (left.length > 0) queues.set(queue, left);
		else queues.delete(queue);
	}

	async stalled(namespace: string, before: number, limit: number): Promise<string[]> {
		return [...this.queuesOf(namespace).entries()]
			.filter(([, entries]) => entries[0].at <= before)
			.sort((a, b) => a[1][0].seq - b[1][0].seq)
			.slice(0, limit)
			.map(([queue]) => queue);
	}

	private count(namespace: string, increments: readonly CounterIncrements[]): void {
		const now = this.now();
		let hashes = this.counterHashes.get(namespace);
		if (!hashes) this.counterHashes.set(namespace, (hashes = new Map()));
		for (const hash of increments) {
			let found = hashes.get(hash.key);
			if (!found || found.expiresAt <= now)
				hashes.set(hash.key, (found = { fields: new Map(), expiresAt: hash.expiresAt }));
			found.expiresAt = hash.expiresAt;
			const fields = found.fields;
			for (const [field, n] of hash.incr) fields.set(field, (fields.get(field) ?? 0) + n);
		}
	}

	async counters(namespace: string, prefix: string): Promise<CounterHash[]> {
		const now = this.now();
		return [...(this.counterHashes.get(namespace) ?? new Map<string, CounterFields>())]
			.filter(([key, hash]) => key.startsWith(prefix) && hash.expiresAt > now)
			.map(([key, hash]) => ({ key, fields: Object.fromEntries(hash.fields) }))
			.sort((a, b) => (a.key < b.key ? -1 : 1));
	}

	async noteActive(namespace: string, key: string, at: number, ttlMs: number): Promise<void> {
		let notes = this.notes.get(namespace);
		if (!notes) this.notes.set(namespace, (notes = new Map()));
		const known = notes.get(key);
		if (!known || known.at < at) notes.set(key, { at, expiresAt: at + ttlMs });
	}

	async active(namespace: string, since: number, limit: number): Promise<string[]> {
		const now = this.now();
		return [...(this.notes.get(namespace) ?? new Map<string, { at: number; expiresAt: number }>())]
			.filter(([, note]) => note.at >= since && note.expiresAt > now)
			.sort((a, b) => b[1].at - a[1].at || (a[0] < b[0] ? -1 : 1))
			.slice(0, limit)
			.map(([key]) => key);
	}

	/** The memory goes with the process: nothing is lost while anyone could notice. */
	async lostWrites(): Promise<undefined> {
		return await Promise.resolve(undefined);
	}

	async close(): Promise<void> {}
}
