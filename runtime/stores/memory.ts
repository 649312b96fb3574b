import type { StateStore, Versioned } from './types';

/** A store in this process's memory: for tests, the CLI and single-shot runs. Lost on restart. */
export class MemoryStore implements StateStore {
	private claims = new Map<string, number>();
	private records = new Map<string, Versioned>();
	private dueAt = new Map<string, Map<string, number>>();

	constructor(private readonly now: () => number = () => Date.now()) {}

	async claim(namespace: string, id: string, ttlMs: number): Promise<boolean> {
		const key = `${namespace}\u0000${id}`;
		const expires = this.claims.get(key);
		if (expires !== undefined && expires > this.now()) return false;
		this.claims.set(key, this.now() + ttlMs);
		return true;
	}

	async release(namespace: string, id: string): Promise<void> {
		this.claims.delete(`${namespace}\u0000${id}`);
	}

	async read(namespace: string, key: string): Promise<Versioned | undefined> {
		const found = this.records.get(`${namespace}\u0000${key}`);
		return found && { ...found };
	}

	async write(
		namespace: string,
		key: string,
		value: string,
		expectedVersion: number,
	): Promise<number | null> {
		const id = `${namespace}\u0000${key}`;
		const current = this.records.get(id)?.version ?? 0;
		if (current !== expectedVersion) return null;
		this.records.set(id, { value, version: current + 1 });
		return current + 1;
	}

	async remove(namespace: string, key: string, expectedVersion: number): Promise<boolean> {
		const id = `${namespace}\u0000${key}`;
		if ((this.records.get(id)?.version ?? 0) !== expectedVersion) return false;
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

	async due(namespace: string, now: number, limit: number): Promise<string[]> {
		return [...(this.dueAt.get(namespace) ?? new Map<string, number>()).entries()]
			.filter(([, at]) => at <= now)
			.sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1))
			.slice(0, limit)
			.map(([key]) => key);
	}

	async close(): Promise<void> {}
}
