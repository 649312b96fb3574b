/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: a temporary SQLite file, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { SqliteStore } from '../../../runtime/stores/sqlite';

const dir = mkdtempSync(path.join(tmpdir(), 'mb-second-connection-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A connection's writes of one turn share a transaction it commits at the turn's end. A second
// connection opened to the same file in that turn (the CLI's or a test's "other process" in this
// one) writes as it opens: it used to wait for that transaction's lock with the event loop blocked,
// so the transaction could never commit, and failed "database is locked" five seconds later.
describe('SQLite store: a second connection opened while the first holds a batch', () => {
	it('opens at once, and both see each other’s writes', async () => {
		const file = path.join(dir, 'shared.sqlite');
		const first = new SqliteStore(file);
		const written = first.write('c', 'k', 'from the first', 0);
		const started = Date.now();
		const second = new SqliteStore(file);
		expect(Date.now() - started).toBeLessThan(1_000);
		expect(await written).toBe(1);
		expect((await second.read('c', 'k'))?.value).toBe('from the first');
		expect(await second.write('c', 'k', 'from the second', 1)).toBe(2);
		expect((await first.read('c', 'k'))?.value).toBe('from the second');
		await second.close();
		await first.close();
	});
});
