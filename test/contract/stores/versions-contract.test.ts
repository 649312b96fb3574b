import { compileScenario, RecordingApi, ScenarioEngine } from '../../../runtime/scenarios';
import { VersionBook } from '../../../runtime/scenarios/engine/versions/book';
import type { LiveConversations } from '../../../runtime/scenarios/engine/versions/pinned';
import type { StateStore } from '../../../runtime/stores';
import { backends, cleanUp, useFreshStore } from './backends';

afterAll(cleanUp);

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const doc = (version: number, states: Record<string, unknown>) => ({
	id: 'flow',
	version,
	start: 'welcome',
	states,
});
const v1 = compileScenario(
	doc(1, {
		welcome: { messages: ['v1 welcome'], on: [{ match: { equals: 'go' }, target: 'ask' }] },
		ask: { messages: ['v1 ask'], fallback: 'v1 fallback' },
	}),
);
// `ask` renamed `question`.
const v2 = compileScenario(
	doc(2, {
		welcome: { messages: ['v2 welcome'], on: [{ match: { equals: 'go' }, target: 'question' }] },
		question: { messages: ['v2 question'], fallback: 'v2 fallback' },
	}),
);

// The version records every store keeps (engine/versions/book.ts), through the store's contract.
describe.each(backends)('version records: $name', (backend) => {
	const t = useFreshStore(backend);
	const book = (store: StateStore = t.store) => new VersionBook(store, '@flow', 10 * DAY);

	it('keeps id, version, hash, first and last seen and the definition; written once a day per process', async () => {
		await book().seen(v1, t.clock);
		t.clock += HOUR;
		await book().seen(v1, t.clock); // the same process: no write
		const [first] = await book().list();
		expect(first).toMatchObject({
			id: 'flow',
			version: 1,
			firstSeen: 1_000_000,
			lastSeen: 1_000_000,
		});
		expect(first.hash).toMatch(/^[0-9a-f]{16}$/);
		expect((await book().definition(v1))?.document).toEqual(v1.document);
		t.clock += DAY;
		await book().seen(v1, t.clock);
		await book().seen(v2, t.clock);
		expect((await book().list()).map((v) => [v.version, v.firstSeen, v.lastSeen])).toEqual([
			[2, t.clock, t.clock],
			[1, 1_000_000, t.clock],
		]);
	});

	it('drops a definition no conversation used for the period kept', async () => {
		await book().seen(v1, t.clock);
		t.clock += 5 * DAY;
		await book().used(v1, t.clock);
		t.clock += 9 * DAY;
		expect(await book().definition(v1)).toBeDefined();
		t.clock += 2 * DAY;
		expect(await book().definition(v1)).toBeUndefined();
		expect(await book().list()).toEqual([]);
	});

	if (backend.reopen)
		it('keeps one record when several processes see a version at once, the first seen time kept', async () => {
			const stores = [t.store, ...Array.from({ length: 3 }, () => backend.reopen!(t.now))];
			await Promise.all(stores.map((store) => book(store).seen(v1, t.clock)));
			const listed = await book().list();
			expect(listed).toHaveLength(1);
			expect(listed[0]).toMatchObject({ version: 1, firstSeen: 1_000_000 });
			await Promise.all(stores.slice(1).map((store) => store.close()));
		});
});

// Move: each conversation moved by compare-and-set, once, while clients write and other Moves run.
describe.each(backends)('moving conversations: $name', (backend) => {
	const t = useFreshStore(backend);
	const api = new RecordingApi();
	const clients = Array.from({ length: 12 }, (_, i) => `cl_${i}`);
	let n = 0;
	const engine = (
		scenario = v2,
		store: StateStore = t.store,
		liveConversations: LiveConversations = 'finish',
	) =>
		new ScenarioEngine({
			scenarios: [scenario],
			store,
			api,
			clock: { now: t.now },
			scope: '@flow',
			liveConversations,
		});
	const say = async (on: ScenarioEngine, client: string, text: string) =>
		await on.handle({ message_id: `m${++n}`, client_id: client, bot_id: 'bot', text });
	const plan = { from: 1, states: { ask: 'question' }, unmapped: 'finish' as const };

	beforeEach(async () => {
		const old = engine(v1);
		for (const client of clients) {
			await say(old, client, 'hi');
			await say(old, client, 'go');
		}
		// One stays in `welcome`: unmapped, it finishes on v1.
		await say(old, 'cl_w', 'hi');
	});

	it('previews where each conversation lands', async () => {
		expect(await engine().previewMove(plan)).toEqual({
			from: { id: 'flow', version: 1 },
			to: { id: 'flow', version: 2 },
			conversations: 13,
			states: [
				{ state: 'ask', conversations: 12, outcome: 'moves', to: 'question' },
				{ state: 'welcome', conversations: 1, outcome: 'stays' },
			],
		});
		await expect(engine().previewMove({ ...plan, states: { ask: 'nowhere' } })).rejects.toThrow(
			'State Map: "nowhere" (for "ask") is not a state of version 2',
		);
	});

	it('moves each once with Moves and clients writing at the same time; each client answered once', async () => {
		const movers = [
			t.store,
			...(backend.reopen ? [backend.reopen(t.now), backend.reopen(t.now)] : [t.store]),
		];
		const sent = api.calls.length;
		const [reports] = await Promise.all([
			Promise.all(movers.map((store) => engine(v2, store).moveConversations(plan))),
			Promise.all(clients.map((client) => say(engine(), client, 'what?'))),
		]);
		expect(reports.reduce((sum, r) => sum + r.moved, 0)).toBe(12);
		expect(reports.flatMap((r) => r.notMoved)).toEqual([]);
		const replies = api.calls.slice(sent).filter((c) => c.kind === 'reply');
		expect(replies).toHaveLength(12);
		expect(new Set(replies.map((c) => c.clientId)).size).toBe(12);
		for (const client of clients)
			expect(await engine().conversation('bot', client)).toMatchObject({
				version: 2,
				state: 'question',
			});
		expect(await engine().conversation('bot', 'cl_w')).toMatchObject({
			version: 1,
			state: 'welcome',
		});
		// Moved once: a Move run again finds none left to move.
		expect((await engine().moveConversations(plan)).moved).toBe(0);
		const versions = await engine().versions();
		expect(versions.map((v) => [v.version, v.conversations])).toEqual([
			[2, 12],
			[1, 1],
		]);
		for (const store of movers.slice(1)) if (store !== t.store) await store.close();
	});

	it('starts over the unmapped ones when asked, on their next message', async () => {
		const report = await engine().moveConversations({ ...plan, unmapped: 'restart' });
		expect(report).toMatchObject({ moved: 12, restarted: 1, stayed: 0, notMoved: [] });
		const answer = await say(engine(), 'cl_w', 'hello');
		expect(answer).toMatchObject({ status: 'started', restart: 'ended' });
		expect(answer.conversation).toMatchObject({ version: 2, state: 'welcome' });
	});
});
