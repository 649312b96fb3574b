/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: a temporary SQLite file, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import type { WriteOptions } from '../../../runtime/stores';
import { SqliteStore } from '../../../runtime/stores/sqlite';

const dir = mkdtempSync(path.join(tmpdir(), 'mb-counter-batch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const counting = (incr: Record<string, number>): WriteOptions => ({
	counters: {
		namespace: 'n',
		hashes: [{ key: 'flow@1|day', incr: new Map(Object.entries(incr)), expiresAt: 9e15 }],
	},
});

// The SQLite store sums a batch's counts and writes them as the batch commits: they must stand or
// fall with the batch's writes, and never leak into the next batch.
describe('SQLite counters written with their batch', () => {
	it('undoes the writes of a batch whose counts fail, and forgets those counts', async () => {
		const file = path.join(dir, 'poisoned.sqlite');
		const store = new SqliteStore(file);
		const other = new DatabaseSync(file);
		other.exec(`CREATE TRIGGER poison BEFORE INSERT ON counters WHEN NEW.field = 'poison'
			BEGIN SELECT RAISE(ABORT, 'poisoned'); END`);
		const batch = [
			store.write('c', 'a', 'x', 0, counting({ fine: 1 })),
			store.write('c', 'b', 'y', 0, counting({ poison: 1 })),
		];
		await expect(Promise.all(batch)).rejects.toThrow('poisoned');
		expect(await store.read('c', 'a')).toBeUndefined();
		expect(await store.read('c', 'b')).toBeUndefined();
		expect(await store.write('c', 'a', 'x', 0, counting({ fine: 1 }))).toBe(1);
		expect(await store.counters('n', '')).toEqual([{ key: 'flow@1|day', fields: { fine: 1 } }]);
		other.close();
		await store.close();
	});
});
