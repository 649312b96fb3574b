/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the durable store of a self-hosted n8n: node:sqlite (built into Node 22.5+, which n8n 2 requires) is the one built-in this package uses; n8n Cloud's rules do not foresee durable node state, and its file sits beside n8n's own database */
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';

import type { QueuedEntry, StateStore, Versioned, WriteOptions } from './types';

/**
 * A durable store in one SQLite file, shared by every execution of one n8n (and by several n8n
 * processes on one machine: SQLite serialises writers, and every write here is one conditional
 * statement or one short transaction, so a claim, a compare-and-set or an append is atomic across
 * them). Transactions never span an await: node:sqlite is synchronous.
 */
export class SqliteStore implements StateStore {
	private db: DatabaseSync;
	private statements: Record<string, StatementSync>;

	constructor(
		readonly file: string,
		private readonly now: () => number = () => Date.now(),
	) {
		if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
		this.db = new DatabaseSync(file);
		this.db.exec(SCHEMA);
		migrate(this.db);
		this.statements = Object.fromEntries(
			Object.entries(STATEMENTS).map(([name, sql]) => [name, this.db.prepare(sql)]),
		);
	}

	/**
	 * Runs `work` as one write transaction (taken at once, so writers queue instead of failing);
	 * it is undone when `work` throws or returns ROLLBACK.
	 */
	private transaction<T>(work: () => T | typeof ROLLBACK): T | typeof ROLLBACK {
		// Never left open: a connection stuck in a transaction would hold the write lock forever.
		if (this.db.isTransaction) this.statements.rollback.run();
		this.statements.begin.run();
		let result: T | typeof ROLLBACK = ROLLBACK;
		let done = false;
		try {
			result = work();
			if (result !== ROLLBACK) {
				this.statements.commit.run();
				done = true;
			}
		} finally {
			if (!done && this.db.isTransaction) this.statements.rollback.run();
		}
		return result;
	}

	/** Expired claims and records are swept now and then, so the file stays the size of the live set. */
	private sweepSometimes(now: number): void {
		if (Math.random() >= 0.001) return;
		this.statements.sweepClaims.run(now);
		this.statements.sweepRecords.run(now);
		this.statements.sweepDues.run();
	}

	async claim(namespace: string, id: string, ttlMs: number): Promise<boolean> {
		const now = this.now();
		const result = this.statements.claim.run(namespace, id, now + ttlMs, now);
		this.sweepSometimes(now);
		return Number(result.changes) === 1;
	}

	async release(namespace: string, id: string): Promise<void> {
		this.statements.release.run(namespace, id);
	}

	async read(namespace: string, key: string): Promise<Versioned | undefined> {
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
		const version = this.transaction(() => {
			const row = (
				expectedVersion === 0
					? this.statements.insert.get(namespace, key, value, expires, now)
					: this.statements.update.get(value, expires, namespace, key, expectedVersion, now)
			) as { version: number } | undefined;
			if (!row) return null;
			if (options.dueAt === null) this.statements.removeDue.run(namespace, key);
			else if (options.dueAt !== undefined)
				this.statements.setDue.run(namespace, key, options.dueAt);
			return Number(row.version);
		});
		this.sweepSometimes(now);
		return version === ROLLBACK ? null : version;
	}

	async remove(namespace: string, key: string, expectedVersion: number): Promise<boolean> {
		const removed = this.transaction(() => {
			const gone =
				Number(this.statements.remove.run(namespace, key, expectedVersion).changes) === 1;
			if (gone) this.statements.removeDue.run(namespace, key);
			return gone;
		});
		return removed === true;
	}

	async setDue(namespace: string, key: string, dueAt: number | null): Promise<void> {
		if (dueAt === null) this.statements.removeDue.run(namespace, key);
		else this.statements.setDue.run(namespace, key, dueAt);
	}

	async due(namespace: string, now: number, limit: number): Promise<string[]> {
		return (this.statements.due.all(namespace, now, limit) as Array<{ key: string }>).map(
			(r) => r.key,
		);
	}

	async enqueue(
		namespace: string,
		queue: string,
		ids: readonly string[],
		value: string,
		ttlMs: number,
	): Promise<number | null> {
		const now = this.now();
		const seq = this.transaction(() => {
			for (const id of ids) {
				// One id already claimed: the whole append is undone, claims included.
				if (Number(this.statements.claim.run(namespace, id, now + ttlMs, now).changes) !== 1)
					return ROLLBACK;
			}
			const row = this.statements.append.get(namespace, queue, value, now) as { seq: number };
			return Number(row.seq);
		});
		return seq === ROLLBACK ? null : seq;
	}

	async queued(namespace: string, queue: string, limit: number): Promise<QueuedEntry[]> {
		return (
			this.statements.queued.all(namespace, queue, limit) as Array<{
				seq: number;
				value: string;
				at: number;
			}>
		).map((r) => ({ seq: Number(r.seq), value: r.value, at: Number(r.at) }));
	}

	async take(namespace: string, queue: string, limit: number): Promise<QueuedEntry[]> {
		const taken = this.transaction(() => {
			const rows = this.statements.queued.all(namespace, queue, limit) as Array<{
				seq: number;
				value: string;
				at: number;
			}>;
			for (const row of rows) this.statements.dequeue.run(namespace, queue, row.seq);
			return rows.map((r) => ({ seq: Number(r.seq), value: r.value, at: Number(r.at) }));
		});
		return taken === ROLLBACK ? [] : taken;
	}

	async dequeue(namespace: string, queue: string, seqs: readonly number[]): Promise<void> {
		if (seqs.length === 0) return;
		this.transaction(() => {
			for (const seq of seqs) this.statements.dequeue.run(namespace, queue, seq);
		});
	}

	async stalled(namespace: string, before: number, limit: number): Promise<string[]> {
		return (this.statements.stalled.all(namespace, before, limit) as Array<{ queue: string }>).map(
			(r) => r.queue,
		);
	}

	async close(): Promise<void> {
		if (this.db.isOpen) this.db.close();
	}
}

const ROLLBACK = Symbol('rollback');

// The busy timeout first: switching to WAL takes a lock, and processes opening one new file at
// once would otherwise fail at once with "database is locked".
const SCHEMA = `
	PRAGMA busy_timeout = 5000;
	PRAGMA journal_mode = WAL;
	PRAGMA synchronous = NORMAL;
	CREATE TABLE IF NOT EXISTS claims (ns TEXT NOT NULL, id TEXT NOT NULL, expires INTEGER NOT NULL, PRIMARY KEY (ns, id)) WITHOUT ROWID;
	CREATE TABLE IF NOT EXISTS records (ns TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, version INTEGER NOT NULL, PRIMARY KEY (ns, key)) WITHOUT ROWID;
	CREATE TABLE IF NOT EXISTS dues (ns TEXT NOT NULL, key TEXT NOT NULL, due INTEGER NOT NULL, PRIMARY KEY (ns, key)) WITHOUT ROWID;
	CREATE INDEX IF NOT EXISTS dues_by_time ON dues (ns, due);
	CREATE TABLE IF NOT EXISTS inbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, ns TEXT NOT NULL, queue TEXT NOT NULL, value TEXT NOT NULL, at INTEGER NOT NULL);
	CREATE INDEX IF NOT EXISTS inbox_by_queue ON inbox (ns, queue, seq);
`;

/** Files written before records could expire gain the column. */
function migrate(db: DatabaseSync): void {
	const columns = db.prepare('PRAGMA table_info(records)').all() as Array<{ name: string }>;
	if (!columns.some((c) => c.name === 'expires'))
		db.exec('ALTER TABLE records ADD COLUMN expires INTEGER');
}

const LIVE = '(expires IS NULL OR expires > ?)';
const STATEMENTS = {
	begin: 'BEGIN IMMEDIATE',
	commit: 'COMMIT',
	rollback: 'ROLLBACK',
	claim: `INSERT INTO claims (ns, id, expires) VALUES (?, ?, ?)
		ON CONFLICT (ns, id) DO UPDATE SET expires = excluded.expires WHERE claims.expires <= ?`,
	release: 'DELETE FROM claims WHERE ns = ? AND id = ?',
	sweepClaims: 'DELETE FROM claims WHERE expires <= ?',
	sweepRecords: 'DELETE FROM records WHERE expires IS NOT NULL AND expires <= ?',
	sweepDues:
		'DELETE FROM dues WHERE NOT EXISTS (SELECT 1 FROM records r WHERE r.ns = dues.ns AND r.key = dues.key)',
	read: `SELECT value, version FROM records WHERE ns = ? AND key = ? AND ${LIVE}`,
	// A new key, or one whose record expired (its version still grows: a stale writer cannot win).
	insert: `INSERT INTO records (ns, key, value, version, expires) VALUES (?, ?, ?, 1, ?)
		ON CONFLICT (ns, key) DO UPDATE SET value = excluded.value, version = records.version + 1,
		expires = excluded.expires WHERE records.expires IS NOT NULL AND records.expires <= ?
		RETURNING version`,
	update: `UPDATE records SET value = ?, version = version + 1, expires = ?
		WHERE ns = ? AND key = ? AND version = ? AND ${LIVE} RETURNING version`,
	remove: 'DELETE FROM records WHERE ns = ? AND key = ? AND version = ?',
	removeDue: 'DELETE FROM dues WHERE ns = ? AND key = ?',
	setDue:
		'INSERT INTO dues (ns, key, due) VALUES (?, ?, ?) ON CONFLICT (ns, key) DO UPDATE SET due = excluded.due',
	due: 'SELECT key FROM dues WHERE ns = ? AND due <= ? ORDER BY due, key LIMIT ?',
	append: 'INSERT INTO inbox (ns, queue, value, at) VALUES (?, ?, ?, ?) RETURNING seq',
	queued: 'SELECT seq, value, at FROM inbox WHERE ns = ? AND queue = ? ORDER BY seq LIMIT ?',
	dequeue: 'DELETE FROM inbox WHERE ns = ? AND queue = ? AND seq = ?',
	stalled: `SELECT queue, MIN(seq) AS first FROM inbox WHERE ns = ? GROUP BY queue
		HAVING MIN(at) <= ? ORDER BY first LIMIT ?`,
};

/** Beside n8n's own database: <N8N_USER_FOLDER or home>/.n8n/messaging-bot/state.sqlite. */
export function defaultStatePath(): string {
	return path.join(
		process.env.N8N_USER_FOLDER ?? homedir(),
		'.n8n',
		'messaging-bot',
		'state.sqlite',
	);
}

const open = new Map<string, SqliteStore>();

/** One connection per file for the whole process: every execution shares it. */
export function sharedSqliteStore(file = defaultStatePath()): SqliteStore {
	const expanded = file.startsWith('~/') ? path.join(homedir(), file.slice(2)) : file;
	const resolved = expanded === ':memory:' ? expanded : path.resolve(expanded);
	let store = open.get(resolved);
	if (!store) {
		store = new SqliteStore(resolved);
		open.set(resolved, store);
	}
	return store;
}

/** Closes every shared connection (on shutdown, or to simulate a restart in tests). */
export async function closeSharedSqliteStores(): Promise<void> {
	for (const store of open.values()) await store.close();
	open.clear();
}
