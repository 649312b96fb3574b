/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling: a SQLite file put back from a backup, real waits for a silence timer */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { compileScenario, ScenarioEngine } from '../../runtime/scenarios';
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
	const { write, transcript, historyReads, ...bench } = healingFixture('default');
	const engineOf = (store: SqliteStore, scenario = steps) =>
		new ScenarioEngine({
			scenarios: [scenario],
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
		const readsBefore = await historyReads();
		const result = await after.handle(await write('a5'));
		// One reading rebuilds the conversation and settles its rebuilt replies (a3's, a4's): the
		// service's request budget is not spent on a reading per reply.
		expect((await historyReads()) - readsBefore).toBe(1);
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

	/**
	 * a1, a2; a backup; the silence timer fires ("still there?"); `more` goes on; then the file is
	 * put back from the backup and n8n starts again: the engine that finds the loss.
	 */
	async function timerThenLoss(name: string, more: (engine: ScenarioEngine) => Promise<unknown>) {
		const file = path.join(dir, name);
		const first = new SqliteStore(file);
		const before = engineOf(first, remind);
		await before.handle(await write('a1'));
		await before.handle(await write('a2'));
		const reader = new (nodeSqlite().DatabaseSync)(file);
		reader.exec(`VACUUM INTO '${file}.backup'`);
		reader.close();
		await new Promise((resolve) => setTimeout(resolve, 1000));
		await before.runDueWork();
		await more(before);
		await first.close();
		for (const log of ['-wal', '-shm']) rmSync(`${file}${log}`, { force: true });
		copyFileSync(`${file}.backup`, file);
		const store = new SqliteStore(file);
		return { store, after: engineOf(store, remind) };
	}

	// A silence timer that fired between two messages before the loss: the rebuild fires it in its
	// place (its reply found in the history, not sent again), so the next message is answered from
	// the state the timer led to, as it was the first time.
	it('fires a silence timer in its place between rebuilt messages, its reply not sent again', async () => {
		const { store, after } = await timerThenLoss('timer.sqlite', async (before) =>
			before.handle(await write('a3')),
		);
		const result = await after.handle(await write('a4'));
		expect(result.healing?.afterLoss).toBeDefined();
		await after.runDueWork();
		expect(await transcript()).toEqual([
			's0 got a1',
			's1 got a2',
			'still there?',
			'back: a3',
			's3 got a4',
		]);
		await store.close();
	});

	// The same timer, due again after the loss with no message since: Run Due Work finds its reply
	// in the history and does not send it twice.
	it('does not send again the reply of a silence timer that fired before the loss', async () => {
		const { store, after } = await timerThenLoss('timer-alone.sqlite', async () => undefined);
		const work = await after.runDueWork();
		expect(work.notice).toMatch(/lost writes it had acknowledged/);
		expect(await transcript()).toEqual(['s0 got a1', 's1 got a2', 'still there?']);
		await store.close();
	});
});

/** Steps with a silence timer in s1 (0.6 s) that leads elsewhere. */
const remind = compileScenario({
	id: 'remind',
	version: 1,
	start: 's0',
	states: {
		s0: { messages: ['s0 got {{message.text}}'], on: [{ match: { any: true }, target: 's1' }] },
		s1: {
			messages: ['s1 got {{message.text}}'],
			on: [{ match: { any: true }, target: 's2' }],
			after: { minutes: 0.01, send: 'still there?', target: 'r' },
		},
		s2: { messages: ['s2 got {{message.text}}'], on: [{ match: { any: true }, target: 's3' }] },
		r: { on: [{ match: { any: true }, target: 'back' }] },
		back: { messages: ['back: {{message.text}}'], on: [{ match: { any: true }, target: 's3' }] },
		s3: { messages: ['s3 got {{message.text}}'], on: [{ match: { any: true }, target: 's3' }] },
	},
});
