/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the durable store of a self-hosted n8n: node:sqlite (built into Node 22.5+, which n8n 2 requires) is the one built-in this package uses; n8n Cloud's rules do not foresee durable node state, and its file sits beside n8n's own database */
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';

import type { StateStore, Versioned } from './types';

/**
 * A durable store in one SQLite file, shared by every execution of one n8n (and by several n8n
 * processes on one machine: SQLite serialises writers, and every write here is a single
 * conditional statement, so a claim or a compare-and-set is atomic across them).
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
		this.db.exec(`
			PRAGMA journal_mode = WAL;
			PRAGMA synchronous = NORMAL;
			PRAGMA busy_timeout = 5000;
			CREATE TABLE IF NOT EXISTS claims (ns TEXT NOT NULL, id TEXT NOT NULL, expires INTEGER NOT NULL, PRIMARY KEY (ns, id)) WITHOUT ROWID;
			CREATE TABLE IF NOT EXISTS records (ns TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, version INTEGER NOT NULL, PRIMARY KEY (ns, key)) WITHOUT ROWID;
			CREATE TABLE IF NOT EXISTS dues (ns TEXT NOT NULL, key TEXT NOT NULL, due INTEGER NOT NULL, PRIMARY KEY (ns, key)) WITHOUT ROWID;
			CREATE INDEX IF NOT EXISTS dues_by_time ON dues (ns, due);
		`);
		const s = (sql: string) => this.db.prepare(sql);
		this.statements = {
			claim: s(
				`INSERT INTO claims (ns, id, expires) VALUES (?, ?, ?)
				 ON CONFLICT (ns, id) DO UPDATE SET expires = excluded.expires WHERE claims.expires <= ?`,
			),
			release: s('DELETE FROM claims WHERE ns = ? AND id = ?'),
			sweep: s('DELETE FROM claims WHERE expires <= ?'),
			read: s('SELECT value, version FROM records WHERE ns = ? AND key = ?'),
			insert: s(
				'INSERT INTO records (ns, key, value, version) VALUES (?, ?, ?, 1) ON CONFLICT DO NOTHING',
			),
			update: s(
				'UPDATE records SET value = ?, version = version + 1 WHERE ns = ? AND key = ? AND version = ?',
			),
			remove: s('DELETE FROM records WHERE ns = ? AND key = ? AND version = ?'),
			removeDue: s('DELETE FROM dues WHERE ns = ? AND key = ?'),
			setDue: s(
				'INSERT INTO dues (ns, key, due) VALUES (?, ?, ?) ON CONFLICT (ns, key) DO UPDATE SET due = excluded.due',
			),
			due: s('SELECT key FROM dues WHERE ns = ? AND due <= ? ORDER BY due, key LIMIT ?'),
		};
	}

	async claim(namespace: string, id: string, ttlMs: number): Promise<boolean> {
		const now = this.now();
		const result = this.statements.claim.run(namespace, id, now + ttlMs, now);
		// Expired claims are swept now and then, so the table stays the size of the live window.
		if (Math.random() < 0.001) this.statements.sweep.run(now);
		return Number(result.changes) === 1;
	}

	async release(namespace: string, id: string): Promise<void> {
		this.statements.release.run(namespace, id);
	}

	async read(namespace: string, key: string): Promise<Versioned | undefined> {
		const row = this.statements.read.get(namespace, key) as
			| { value: string; version: number }
			| undefined;
		return row ? { value: row.value, version: Number(row.version) } : undefined;
	}

	async write(
		namespace: string,
		key: string,
		value: string,
		expectedVersion: number,
	): Promise<number | null> {
		const result =
			expectedVersion === 0
				? this.statements.insert.run(namespace, key, value)
				: this.statements.update.run(value, namespace, key, expectedVersion);
		return Number(result.changes) === 1 ? expectedVersion + 1 : null;
	}

	async remove(namespace: string, key: string, expectedVersion: number): Promise<boolean> {
		const removed =
			Number(this.statements.remove.run(namespace, key, expectedVersion).changes) === 1;
		if (removed) this.statements.removeDue.run(namespace, key);
		return removed;
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

	async close(): Promise<void> {
		if (this.db.isOpen) this.db.close();
	}
}

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
