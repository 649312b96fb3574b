/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: a temporary SQLite file, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';

import { SqliteStore } from '../../../runtime/stores/sqlite';

const dir = mkdtempSync(path.join(tmpdir(), 'mb-rolled-back-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// On a full disk SQLite may roll the whole transaction back itself. The batch it held (every
// write of that turn so far) must then fail whole, and the turn's later writes go in a new
// transaction: never each committed on its own while reported failed. The database is held to
// its size (max_page_count), which fails as a full disk does (SQLITE_FULL).
describe('SQLite store: a batch SQLite rolled back itself', () => {
	it('reports each write of the turn as it is stored, and goes on once there is room', async () => {
		const store = new SqliteStore(path.join(dir, 'full.sqlite'));
		expect(await store.write('c', 'first', 'v', 0)).toBe(1);
		const db = (store as unknown as { db: DatabaseSync }).db;
		const { page_count: pages } = db.prepare('PRAGMA page_count').get() as { page_count: number };
		db.exec(`PRAGMA max_page_count = ${pages + 3}`);
		// Appends (their claims and entries are written without RETURNING, where SQLite rolls the
		// whole transaction back on SQLITE_FULL) and steps, in one turn.
		const reported = await Promise.all(
			Array.from({ length: 30 }, async (_, i) =>
				(i % 3 === 0
					? store.write('c', `k${i}`, 'x'.repeat(3000), 0)
					: store.enqueue('i', 'q', [`m${i}`], 'y'.repeat(3000), 60_000)
				).then(
					(answer) => (answer === null ? 'lost' : 'kept'),
					(error: Error) => error.message,
				),
			),
		);
		const failed = reported.filter((r) => r !== 'kept');
		expect(failed.length).toBeGreaterThan(0);
		for (const message of failed) expect(message).toMatch(/the disk is full/);
		// What was reported is what is stored: an entry or record for each write said kept, none else.
		const entries = (await store.queued('i', 'q', 100)).length;
		const records = await Promise.all(
			reported.map(async (_, i) => (i % 3 === 0 ? await store.read('c', `k${i}`) : undefined)),
		);
		const keptAppends = reported.filter((r, i) => i % 3 !== 0 && r === 'kept').length;
		expect(entries).toBe(keptAppends);
		expect(records.map((r) => r !== undefined)).toEqual(
			reported.map((r, i) => i % 3 === 0 && r === 'kept'),
		);
		db.exec('PRAGMA max_page_count = 1073741823');
		// An append that failed left no claim behind: the service's retry of it is taken.
		for (const [i, r] of reported.entries())
			if (i % 3 !== 0 && r !== 'kept')
				expect(await store.enqueue('i', 'q', [`m${i}`], 'y', 60_000)).not.toBeNull();
		expect(await store.enqueue('i', 'q', ['later'], 'z', 60_000)).not.toBeNull();
		expect(await store.write('c', 'later', 'v', 0)).toBe(1);
		await store.close();
	});
});
