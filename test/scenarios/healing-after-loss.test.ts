/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: a SQLite file put back from a backup */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { ScenarioEngine } from '../../runtime/scenarios';
import { HealingSession } from '../../runtime/scenarios/engine/healing/session';
import { nodeSqlite, SqliteStore } from '../../runtime/stores/sqlite';
import { healingFixture, steps } from './healing-fixture';
import { realClock } from '../helpers/client';

const dir = mkdtempSync(path.join(tmpdir(), 'mb-loss-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A store that came back without writes it had acknowledged (here a SQLite file put back from an
// older backup): the conversation is rebuilt from the client's history, replies already sent are
// found there and not sent again, and it goes on from where it was, not from the start.
describe('a conversation the store lost, rebuilt from the history', () => {
	const { write, transcript, ...bench } = healingFixture('default');
	const engineOf = (store: SqliteStore) =>
		new ScenarioEngine({
			scenarios: [steps],
			store,
			api: bench.client(),
			clock: realClock,
			healing: { session: new HealingSession(realClock.now()) },
		});

	it('answers each message once, in order, after the file is put back from an older backup', async () => {
		const file = path.join(dir, 'state.sqlite');
		let store = new SqliteStore(file);
		const before = engineOf(store);
		await before.handle(await write('a1'));
		await before.handle(await write('a2'));
		const reader = new (nodeSqlite().DatabaseSync)(file);
		reader.exec(`VACUUM INTO '${file}.backup'`);
		reader.close();
		await before.handle(await write('a3'));
		await before.handle(await write('a4'));
		await store.close();
		// The file is put back from the backup; n8n starts again.
		for (const log of ['-wal', '-shm']) rmSync(`${file}${log}`, { force: true });
		copyFileSync(`${file}.backup`, file);
		store = new SqliteStore(file);
		expect((await store.lostWrites())?.detail).toMatch(/restored from an older backup/);
		const after = engineOf(store);
		const result = await after.handle(await write('a5'));
		expect(result.status).toBe('handled');
		expect(result.notice).toMatch(/lost writes it had acknowledged/);
		expect(result.healing).toMatchObject({ healed: [expect.any(String), expect.any(String)] });
		expect(result.healing?.afterLoss).toBeDefined();
		expect(await transcript()).toEqual([
			's0 got a1',
			's1 got a2',
			's2 got a3',
			's3 got a4',
			's4 got a5',
		]);
		await store.close();
	});
});
