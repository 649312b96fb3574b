/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: a temporary SQLite file, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { nodeSqlite, SqliteStore } from '../../../runtime/stores/sqlite';
import { SWEEP_EVERY_MS, SweepSchedule } from '../../../runtime/stores/sweep-schedule';

const dir = mkdtempSync(path.join(tmpdir(), 'mb-sweep-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the sweep of what expired', () => {
	it('is due once a minute by the clock, whatever the traffic, and a clock gone back waits again', () => {
		const schedule = new SweepSchedule(1_000);
		const due = (at: number) => schedule.due(at);
		expect([due(1_000), due(1_000 + SWEEP_EVERY_MS - 1)]).toEqual([false, false]);
		expect([due(1_000 + SWEEP_EVERY_MS), due(1_000 + SWEEP_EVERY_MS + 1)]).toEqual([true, false]);
		// Back by an hour: a minute from there.
		expect([due(0), due(SWEEP_EVERY_MS - 1), due(SWEEP_EVERY_MS)]).toEqual([false, false, true]);
	});

	it('deletes expired claims from a SQLite file a minute on, not before, and keeps live ones', async () => {
		let now = 1_000_000;
		const file = path.join(dir, 'sweep.sqlite');
		const store = new SqliteStore(file, () => now);
		const rows = () => {
			const db = new (nodeSqlite().DatabaseSync)(file, { readOnly: true });
			try {
				return (db.prepare('SELECT id FROM claims ORDER BY id').all() as Array<{ id: string }>).map(
					(r) => r.id,
				);
			} finally {
				db.close();
			}
		};
		await store.claim('ns', 'short', 1_000);
		await store.claim('ns', 'long', 10 * SWEEP_EVERY_MS);
		now += 30_000;
		await store.claim('ns', 'third', 10 * SWEEP_EVERY_MS);
		expect(rows()).toEqual(['long', 'short', 'third']);
		now += SWEEP_EVERY_MS;
		await store.claim('ns', 'fourth', 10 * SWEEP_EVERY_MS);
		expect(rows()).toEqual(['fourth', 'long', 'third']);
		await store.close();
	});
});
