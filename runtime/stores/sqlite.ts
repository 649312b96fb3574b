/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the durable store of a self-hosted n8n: node:sqlite (built into Node 22.5+, which n8n 2 requires) is the one built-in this package uses; n8n Cloud's rules do not foresee durable node state, and its file sits beside n8n's own database */
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import type { DatabaseSync, StatementSync } from 'node:sqlite';

import { getOrCreate } from '../per-process';
import { commitOpenBatches, GroupCommit, UNDO } from './sqlite-batch';
import { sqliteStoreError } from './sqlite-errors';
import { SweepSchedule } from './sweep-schedule';
import type { LostWrites } from './loss';
import { SqliteMarker } from './sqlite-marker';
import { CounterSums } from './sqlite-counters';
import { migrate, SCHEMA, STATEMENTS } from './sqlite-schema';
import { defaultStatePath, nodeSqlite } from './sqlite-module';
import type { CounterHash, QueuedEntry, StateStore, Versioned, WriteOptions } from './types';
import type { ConversationAt, ConversationRead } from './reads';

/**
 * A durable store in one SQLite file, shared by every execution of one n8n (and by several n8n
 * processes on one machine: SQLite serialises writers, and every write here runs inside one write
 * transaction, so a claim, a compare-and-set or an append is atomic across them). The writes of
 * one turn of the event loop are committed together (group commit, `sqlite-batch.ts`); every
 * operation resolves only once its write is committed. Transactions never span an await of
 * anything but their commit: node:sqlite is synchronous.
 */
export { nodeSqlite, statePathIn } from './sqlite-module';

export class SqliteStore implements StateStore {
	private db!: DatabaseSync;
	private statements: Record<keyof typeof STATEMENTS, StatementSync>;
	private batch: GroupCommit;
	/** The open batch's counter increments, written into it as it commits. */
	private sums: CounterSums;
	private marker?: SqliteMarker;
	private readonly sweeps: SweepSchedule;

	constructor(
		readonly file: string,
		private readonly now: () => number = () => Date.now(),
	) {
		this.sweeps = new SweepSchedule(now());
		try {
			if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
			commitOpenBatches(); // opening writes (the schema, the loss marker)
			this.db = new (nodeSqlite().DatabaseSync)(file);
			this.db.exec(SCHEMA);
			migrate(this.db);
			this.marker = file === ':memory:' ? undefined : new SqliteMarker(this.db, file, now);
		} catch (error) {
			throw sqliteStoreError(file, error);
		}
		this.statements = Object.fromEntries(
			Object.entries(STATEMENTS).map(([name, sql]) => [name, this.db.prepare(sql)]),
		) as Record<keyof typeof STATEMENTS, StatementSync>;
		this.sums = new CounterSums(this.statements.count);
		this.batch = new GroupCommit(
			this.db,
			{
				beforeCommit: () => {
					this.sums.flush();
					this.marker?.stamp();
				},
				discard: () => this.sums.discard(),
				committed: () => this.marker?.committed(),
			},
			(error) => sqliteStoreError(file, error),
		);
	}

	/** What the file came back without (restored from an older backup), found when it was opened. */
	async lostWrites(): Promise<LostWrites | undefined> {
		return await Promise.resolve(this.marker?.lost);
	}

	/** Write transactions committed so far (several operations share one under load). */
	get commits(): number {
		return this.batch.commits;
	}

	/** Expired claims and records are swept now and then, so the file stays the size of the live set. */
	private sweepSometimes(now: number): void {
		if (!this.sweeps.due(now)) return;
		this.statements.sweepClaims.run(now);
		this.statements.sweepRecords.run(now);
		this.statements.sweepDues.run();
		this.statements.sweepCounters.run(now);
		this.statements.sweepActive.run(now);
	}

	async claim(namespace: string, id: string, ttlMs: number): Promise<boolean> {
		const now = this.now();
		return (await this.batch.write(() => {
			const result = this.statements.claim.run(namespace, id, now + ttlMs, now);
			this.sweepSometimes(now);
			return Number(result.changes) === 1;
		})) as boolean;
	}

	async release(namespace: string, id: string): Promise<void> {
		await this.batch.write(() => this.statements.release.run(namespace, id));
	}

	async read(namespace: string, key: string): Promise<Versioned | undefined> {
		return await this.batch.read(() => this.readNow(namespace, key));
	}

	private readNow(namespace: string, key: string): Versioned | undefined {
		const row = this.statements.read.get(namespace, key, this.now()) as
			| { value: string; version: number }
			| undefined;
		return row ? { value: row.value, version: Number(row.version) } : undefined;
	}

	async write(
		namespace: string,
		key: string,
		value: string,
		expectedVersion: number,
		options: WriteOptions = {},
	): Promise<number | null> {
		const now = this.now();
		const expires = options.expiresAt ?? null;
		const version = await this.batch.write(() => {
			const row = (
				expectedVersion === 0
					? this.statements.insert.get(namespace, key, value, expires, now)
					: this.statements.update.get(value, expires, namespace, key, expectedVersion, now)
			) as { version: number } | undefined;
			if (!row) return null;
			if (options.dueAt === null) this.statements.removeDue.run(namespace, key);
			else if (options.dueAt !== undefined)
				this.statements.setDue.run(namespace, key, options.dueAt);
			const taken = options.dequeue;
			if (taken) this.dequeueNow(taken.namespace, taken.queue, taken.seqs);
			this.sweepSometimes(now);
			// Last: nothing after it can undo the write, whose counts are now in the batch's sums.
			this.sums.add(options.counters, now);
			return Number(row.version);
		}, true);
		return version === UNDO ? null : version;
	}

	async remove(namespace: string, key: string, expectedVersion: number): Promise<boolean> {
		return (await this.batch.write(() => {
			const gone =
				Number(this.statements.remove.run(namespace, key, expectedVersion).changes) === 1;
			if (gone) this.statements.removeDue.run(namespace, key);
			return gone;
		})) as boolean;
	}

	async setDue(namespace: string, key: string, dueAt: number | null): Promise<void> {
		await this.batch.write(() =>
			dueAt === null
				? this.statements.removeDue.run(namespace, key)
				: this.statements.setDue.run(namespace, key, dueAt),
		);
	}

	async dropDue(namespace: string, key: string): Promise<void> {
		const now = this.now();
		await this.batch.write(() =>
			this.statements.dropDue.run(namespace, key, now, namespace, key, now),
		);
	}

	async due(namespace: string, now: number, limit: number): Promise<string[]> {
		const rows = await this.batch.read(
			() => this.statements.due.all(namespace, now, limit) as Array<{ key: string }>,
		);
		return rows.map((r) => r.key);
	}

	async enqueue(
		namespace: string,
		queue: string,
		ids: readonly string[],
		value: string,
		ttlMs: number,
	): Promise<number | null> {
		const now = this.now();
		const seq = await this.batch.write(() => {
			for (const id of ids) {
				// One id already claimed: the whole append is undone, claims included.
				if (Number(this.statements.claim.run(namespace, id, now + ttlMs, now).changes) !== 1)
					return UNDO;
			}
			const row = this.statements.append.get(namespace, queue, value, now) as { seq: number };
			return Number(row.seq);
		}, ids.length > 1);
		return seq === UNDO ? null : seq;
	}

	async queued(namespace: string, queue: string, limit: number): Promise<QueuedEntry[]> {
		return await this.batch.read(() => this.queuedNow(namespace, queue, limit));
	}

	async readConversation(at: ConversationAt): Promise<ConversationRead> {
		const { recordNamespace, key, inboxNamespace, queue, limit } = at;
		// Both read at once, from the same snapshot (node:sqlite is synchronous).
		return await this.batch.read(() => ({
			queued: this.queuedNow(inboxNamespace, queue, limit),
			record: this.readNow(recordNamespace, key),
		}));
	}

	private queuedNow(namespace: string, queue: string, limit: number): QueuedEntry[] {
		return (
			this.statements.queued.all(namespace, queue, limit) as Array<{
				seq: number;
				value: string;
				at: number;
			}>
		).map((r) => ({ seq: Number(r.seq), value: r.value, at: Number(r.at) }));
	}

	async take(namespace: string, queue: string, limit: number): Promise<QueuedEntry[]> {
		const taken = await this.batch.write(() => {
			const entries = this.queuedNow(namespace, queue, limit);
			this.dequeueNow(
				namespace,
				queue,
				entries.map((e) => e.seq),
			);
			return entries;
		});
		return taken === UNDO ? [] : taken;
	}

	async dequeue(namespace: string, queue: string, seqs: readonly number[]): Promise<void> {
		if (seqs.length === 0) return;
		await this.batch.write(() => this.dequeueNow(namespace, queue, seqs));
	}

	private dequeueNow(namespace: string, queue: string, seqs: readonly number[]): void {
		for (const seq of seqs) this.statements.dequeue.run(namespace, queue, seq);
	}

	async counters(namespace: string, prefix: string): Promise<CounterHash[]> {
		const rows = await this.batch.read(() => {
			// The open batch's sums first: a read inside it sees its writes.
			this.sums.flush();
			return this.statements.counters.all(
				namespace,
				prefix,
				`${prefix}\uffff`,
				this.now(),
			) as Array<{ key: string; field: string; value: number }>;
		});
		const byKey = new Map<string, Record<string, number>>();
		for (const row of rows) {
			let fields = byKey.get(row.key);
			if (!fields) byKey.set(row.key, (fields = {}));
			fields[row.field] = Number(row.value);
		}
		return [...byKey.entries()].map(([key, fields]) => ({ key, fields }));
	}

	async stalled(namespace: string, before: number, limit: number): Promise<string[]> {
		const rows = await this.batch.read(
			() => this.statements.stalled.all(namespace, before, limit) as Array<{ queue: string }>,
		);
		return rows.map((r) => r.queue);
	}

	async noteActive(namespace: string, key: string, at: number, ttlMs: number): Promise<void> {
		await this.batch.write(() => this.statements.noteActive.run(namespace, key, at, at + ttlMs));
	}

	async active(namespace: string, since: number, limit: number): Promise<string[]> {
		const rows = await this.batch.read(
			() =>
				this.statements.active.all(namespace, since, this.now(), limit) as Array<{ key: string }>,
		);
		return rows.map((r) => r.key);
	}

	async close(): Promise<void> {
		if (!this.db.isOpen) return;
		this.batch.stop();
		this.marker?.stop();
		this.db.close();
	}
}

const open = new Map<string, SqliteStore>();

/** One connection per file for the whole process: every execution shares it. */
export function sharedSqliteStore(file = defaultStatePath()): SqliteStore {
	const expanded = file.startsWith('~/') ? path.join(homedir(), file.slice(2)) : file;
	const resolved = expanded === ':memory:' ? expanded : path.resolve(expanded);
	return getOrCreate(open, resolved, () => new SqliteStore(resolved));
}

/** Closes every shared connection (on shutdown, or to simulate a restart in tests). */
export async function closeSharedSqliteStores(): Promise<void> {
	for (const store of open.values()) await store.close();
	open.clear();
}
