import type { StateStore, Versioned, WriteOptions } from '../../runtime/stores';
import type { ConversationAt } from '../../runtime/stores/types';

/**
 * A store whose process dies on a chosen write (before it lands) or just after one; or whose next
 * `failReads` reads fail, as a store restarting does.
 */
export class CrashingStore implements StateStore {
	writes = 0;
	crashOnWrite = 0;
	crashAfterWrite = 0;
	failReads = 0;
	constructor(private readonly inner: StateStore) {}
	claim(ns: string, id: string, ttl: number) {
		return this.inner.claim(ns, id, ttl);
	}
	release(ns: string, id: string) {
		return this.inner.release(ns, id);
	}
	async read(ns: string, key: string): Promise<Versioned | undefined> {
		if (this.failReads > 0) {
			this.failReads--;
			throw new Error('The state store could not be read: connection lost');
		}
		return await this.inner.read(ns, key);
	}
	async write(ns: string, key: string, value: string, expected: number, options?: WriteOptions) {
		if (++this.writes === this.crashOnWrite) throw new Error('process crashed');
		const version = await this.inner.write(ns, key, value, expected, options);
		if (this.writes === this.crashAfterWrite) throw new Error('process crashed');
		return version;
	}
	enqueue(ns: string, queue: string, ids: readonly string[], value: string, ttl: number) {
		return this.inner.enqueue(ns, queue, ids, value, ttl);
	}
	queued(ns: string, queue: string, limit: number) {
		return this.inner.queued(ns, queue, limit);
	}
	readConversation(at: ConversationAt) {
		return this.inner.readConversation(at);
	}
	take(ns: string, queue: string, limit: number) {
		return this.inner.take(ns, queue, limit);
	}
	dequeue(ns: string, queue: string, seqs: readonly number[]) {
		return this.inner.dequeue(ns, queue, seqs);
	}
	stalled(ns: string, before: number, limit: number) {
		return this.inner.stalled(ns, before, limit);
	}
	remove(ns: string, key: string, expected: number) {
		return this.inner.remove(ns, key, expected);
	}
	setDue(ns: string, key: string, due: number | null) {
		return this.inner.setDue(ns, key, due);
	}
	dropDue(ns: string, key: string) {
		return this.inner.dropDue(ns, key);
	}
	due(ns: string, now: number, limit: number) {
		return this.inner.due(ns, now, limit);
	}
	counters(ns: string, prefix: string) {
		return this.inner.counters(ns, prefix);
	}
	noteActive(ns: string, key: string, at: number, ttl: number) {
		return this.inner.noteActive(ns, key, at, ttl);
	}
	active(ns: string, since: number, limit: number) {
		return this.inner.active(ns, since, limit);
	}
	lostWrites() {
		return this.inner.lostWrites();
	}
	close() {
		return this.inner.close();
	}
}
