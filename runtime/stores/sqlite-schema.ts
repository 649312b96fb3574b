/* eslint-disable @n8n/community-nodes/no-restricted-imports -- node:sqlite, see sqlite.ts */
import type { DatabaseSync } from 'node:sqlite';

/**
 * The SQLite store's tables and statements. The busy timeout first: switching to WAL takes a
 * lock, and processes opening one new file at once would otherwise fail at once with "database is
 * locked". WAL with synchronous=NORMAL: a commit is in the log (the OS's page cache) before it
 * returns, so it survives the process being killed; it is flushed to disk at each checkpoint, so
 * an OS crash or power loss may lose the last commits before one. Checkpoints are the store's own
 * (sqlite-batch.ts), never inside a commit. Pages of 8 KB for a new file (one made before keeps
 * its own): a conversation's record is one to two kilobytes, and a row of the records table over
 * about 1 KB (a quarter of a 4 KB page) spills into an overflow page that each write and read pays
 * for; measured on the analytics counters' records (about 1.2 KB), 4 KB pages cost the counters
 * 18 % of throughput and 8 KB pages 5 %, with the same speed without them; 16 KB pages were slower.
 */
export const SCHEMA = `
	PRAGMA page_size = 8192;
	PRAGMA busy_timeout = 5000;
	PRAGMA journal_mode = WAL;
	PRAGMA synchronous = NORMAL;
	PRAGMA wal_autocheckpoint = 0;
	PRAGMA journal_size_limit = 67108864;
	CREATE TABLE IF NOT EXISTS claims (ns TEXT NOT NULL, id TEXT NOT NULL, expires INTEGER NOT NULL, PRIMARY KEY (ns, id)) WITHOUT ROWID;
	CREATE TABLE IF NOT EXISTS records (ns TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, version INTEGER NOT NULL, expires INTEGER, PRIMARY KEY (ns, key)) WITHOUT ROWID;
	CREATE TABLE IF NOT EXISTS dues (ns TEXT NOT NULL, key TEXT NOT NULL, due INTEGER NOT NULL, PRIMARY KEY (ns, key)) WITHOUT ROWID;
	CREATE INDEX IF NOT EXISTS dues_by_time ON dues (ns, due);
	CREATE TABLE IF NOT EXISTS inbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, ns TEXT NOT NULL, queue TEXT NOT NULL, value TEXT NOT NULL, at INTEGER NOT NULL);
	CREATE INDEX IF NOT EXISTS inbox_by_queue ON inbox (ns, queue, seq);
	CREATE TABLE IF NOT EXISTS counters (ns TEXT NOT NULL, key TEXT NOT NULL, field TEXT NOT NULL, value INTEGER NOT NULL, expires INTEGER NOT NULL, PRIMARY KEY (ns, key, field)) WITHOUT ROWID;
	CREATE TABLE IF NOT EXISTS active (ns TEXT NOT NULL, key TEXT NOT NULL, at INTEGER NOT NULL, expires INTEGER NOT NULL, PRIMARY KEY (ns, key)) WITHOUT ROWID;
	CREATE INDEX IF NOT EXISTS active_by_time ON active (ns, at);
	CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
`;

/**
 * Files written before records could expire gain the column. Looked at and changed under the
 * write lock, so processes opening one old file at once add it once (the others wait, then see it).
 */
export function migrate(db: DatabaseSync): void {
	const hasExpires = () =>
		(db.prepare('PRAGMA table_info(records)').all() as Array<{ name: string }>).some(
			(c) => c.name === 'expires',
		);
	if (hasExpires()) return;
	db.exec('BEGIN IMMEDIATE');
	let committed = false;
	try {
		if (!hasExpires()) db.exec('ALTER TABLE records ADD COLUMN expires INTEGER');
		db.exec('COMMIT');
		committed = true;
	} finally {
		if (!committed) db.exec('ROLLBACK');
	}
}

const LIVE = '(expires IS NULL OR expires > ?)';

export const STATEMENTS = {
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
	dropDue: `DELETE FROM dues WHERE ns = ? AND key = ? AND due <= ?
		AND NOT EXISTS (SELECT 1 FROM records WHERE ns = ? AND key = ? AND ${LIVE})`,
	setDue:
		'INSERT INTO dues (ns, key, due) VALUES (?, ?, ?) ON CONFLICT (ns, key) DO UPDATE SET due = excluded.due',
	due: 'SELECT key FROM dues WHERE ns = ? AND due <= ? ORDER BY due, key LIMIT ?',
	append: 'INSERT INTO inbox (ns, queue, value, at) VALUES (?, ?, ?, ?) RETURNING seq',
	queued: 'SELECT seq, value, at FROM inbox WHERE ns = ? AND queue = ? ORDER BY seq LIMIT ?',
	dequeue: 'DELETE FROM inbox WHERE ns = ? AND queue = ? AND seq = ?',
	counters: `SELECT key, field, value FROM counters WHERE ns = ? AND key >= ? AND key < ? AND expires > ?
		ORDER BY key, field`,
	// One field's sum over a batch (ns, key, field, n, expires, now); a hash past its deadline
	// starts again from it.
	count: `INSERT INTO counters (ns, key, field, value, expires) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (ns, key, field) DO UPDATE SET expires = excluded.expires,
		value = CASE WHEN counters.expires <= ? THEN excluded.value ELSE counters.value + excluded.value END`,
	sweepCounters: 'DELETE FROM counters WHERE expires <= ?',
	noteActive: `INSERT INTO active (ns, key, at, expires) VALUES (?, ?, ?, ?)
		ON CONFLICT (ns, key) DO UPDATE SET at = excluded.at, expires = excluded.expires
		WHERE excluded.at > active.at`,
	active: `SELECT key FROM active WHERE ns = ? AND at >= ? AND expires > ?
		ORDER BY at DESC, key LIMIT ?`,
	sweepActive: 'DELETE FROM active WHERE expires <= ?',
	stalled: `SELECT queue, MIN(seq) AS first FROM inbox WHERE ns = ? GROUP BY queue
		HAVING MIN(at) <= ? ORDER BY first LIMIT ?`,
};
