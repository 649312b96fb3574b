/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: temporary SQLite files, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { SqliteStore } from '../../../runtime/stores/sqlite';

const dir = mkdtempSync(path.join(tmpdir(), 'mb-page-size-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function pageSize(file: string): number {
	const db = new DatabaseSync(file);
	try {
		return Number((db.prepare('PRAGMA page_size').get() as { page_size: number }).page_size);
	} finally {
		db.close();
	}
}

// A conversation's record is a kilobyte or two; in a table keyed by (namespace, key), a row over a
// quarter of a 4 KB page spills into an overflow page that every write and read then pays for.
describe('SQLite page size', () => {
	it('makes a new file with 8 KB pages', async () => {
		const file = path.join(dir, 'new.sqlite');
		const store = new SqliteStore(file);
		expect(await store.write('c', 'k', 'x'.repeat(1500), 0)).toBe(1);
		await store.close();
		expect(pageSize(file)).toBe(8192);
	});

	it('keeps the page size of a file made before, and works in it', async () => {
		const file = path.join(dir, 'old.sqlite');
		const db = new DatabaseSync(file);
		db.exec('PRAGMA page_size = 4096; CREATE TABLE made_before (a)');
		db.close();
		const store = new SqliteStore(file);
		expect(await store.write('c', 'k', 'x'.repeat(1500), 0)).toBe(1);
		expect((await store.read('c', 'k'))?.value).toHaveLength(1500);
		await store.close();
		expect(pageSize(file)).toBe(4096);
	});
});
