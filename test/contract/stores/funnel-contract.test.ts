import type { StateStore } from '../../../runtime/stores';
import { Chat, MINUTE, scenario } from '../../scenarios/harness';
import { backends, cleanUp } from './backends';

afterAll(cleanUp);

// Two states a step passes through (route, check), a capture with a give-up and a way back, a
// keyword to a person, an end.
const SHOP = scenario(
	{
		welcome: { messages: ['Hi'], on: [{ match: { equals: 'order' }, target: 'route' }] },
		route: { choose: [{ target: 'check' }] },
		check: { choose: [{ target: 'ask' }] },
		ask: {
			messages: ['Your email?'],
			on: [{ match: { equals: 'back' }, target: 'welcome' }],
			capture: {
				into: 'email',
				check: 'email',
				retry: 'Again?',
				retries: 1,
				target: 'done',
				giveUp: { target: 'agent' },
			},
		},
		agent: { messages: ['A person will answer'], actions: [{ handoff: true }] },
		done: { messages: ['Thanks'], end: true },
	},
	{ id: 'shop', keywords: [{ match: { equals: 'human' }, target: 'agent' }] },
);
const DAY = '2026-01-05';
const HOUR = 60 * MINUTE;

// The analytics counters through the engine's real steps, on every store.
describe.each(backends)('funnel counters: $name', (backend) => {
	let store: StateStore | undefined;
	const chatOn = () => new Chat([SHOP], { openStore: (now) => (store = backend.open(now)) });
	afterEach(async () => store?.close());

	const read = async (chat: Chat, quietMs = HOUR) => {
		const report = await chat.engine.analytics({ from: DAY, to: DAY, now: chat.time, quietMs });
		return Object.fromEntries(report.versions[0].states.map((s) => [s.state, s]));
	};

	it('counts both states and both edges of a one-step pass through two transient states', async () => {
		const chat = chatOn();
		await chat.say('hi');
		expect(await chat.say('order')).toEqual(['Your email?']);
		const states = await read(chat);
		for (const name of ['route', 'check', 'ask'])
			expect(states[name]).toMatchObject({ reached: 1, visits: 1 });
		expect(states.welcome.edges).toEqual([{ to: 'route', count: 1 }]);
		expect(states.route.edges).toEqual([{ to: 'check', count: 1 }]);
		expect(states.check.edges).toEqual([{ to: 'ask', count: 1 }]);
		// Nobody skipped a state.
		expect(states.welcome.edges.some((e) => e.to === 'ask')).toBe(false);
	});

	it('counts a loop as one conversation reached and two visits', async () => {
		const chat = chatOn();
		for (const text of ['hi', 'order', 'back', 'order']) await chat.say(text);
		const states = await read(chat);
		for (const name of ['welcome', 'route', 'check', 'ask'])
			expect(states[name]).toMatchObject({ reached: 1, visits: 2 });
		expect(states.ask.edges).toEqual([{ to: 'welcome', count: 1 }]);
		expect(states.ask).toMatchObject({ inProgress: 1, dropped: 0, dropOffShare: 0 });
	});

	it('puts a hand-off, an end, a quiet client and an active client in their four buckets', async () => {
		const chat = chatOn();
		for (const client of ['cl_quiet', 'cl_human', 'cl_done']) {
			await chat.say('hi', client);
			await chat.say('order', client);
		}
		// A keyword mid-capture: a move to the person, not the capture's give-up arrow.
		await chat.say('human', 'cl_human');
		await chat.say('ada@example.com', 'cl_done');
		chat.time += 2 * HOUR;
		await chat.say('hi', 'cl_active');
		const states = await read(chat);
		expect(states.ask).toMatchObject({
			reached: 3,
			completed: 0,
			handedOff: 0,
			dropped: 1,
			inProgress: 0,
			dropOffShare: 1 / 3,
			giveUps: 0,
		});
		expect(states.ask.edges).toEqual([{ to: 'done', count: 1 }]);
		expect(states.ask.keywordEdges).toEqual([{ to: 'agent', count: 1 }]);
		expect(states.agent).toMatchObject({ reached: 1, handedOff: 1, dropped: 0, inProgress: 0 });
		expect(states.done).toMatchObject({ reached: 1, completed: 1, dropped: 0, inProgress: 0 });
		expect(states.welcome).toMatchObject({ reached: 4, inProgress: 1, dropped: 0 });
		// With a longer quiet time the quiet client is still in progress.
		expect((await read(chat, 3 * HOUR)).ask).toMatchObject({ dropped: 0, inProgress: 1 });
	});

	it('keeps a stop in the day the state was first reached, whenever the client answers', async () => {
		const chat = chatOn();
		await chat.say('hi');
		await chat.say('order');
		chat.time += 24 * HOUR;
		expect(await chat.say('nope')).toEqual(['Again?']);
		const days = async (from: string, to: string) => {
			const report = await chat.engine.analytics({ from, to, now: chat.time, quietMs: HOUR });
			const ask = report.versions[0].states.find((s) => s.state === 'ask');
			return [ask?.reached, ask?.visits, ask?.inProgress, ask?.dropped];
		};
		// The answer of the second day moved its stop (now in progress) in the first day's counts.
		expect(await days(DAY, DAY)).toEqual([1, 1, 1, 0]);
		expect(await days('2026-01-06', '2026-01-06')).toEqual([0, 0, 0, 0]);
		expect(await days(DAY, '2026-01-06')).toEqual([1, 1, 1, 0]);
	});

	it('counts on from a record written in the earlier form (reached and stop as objects)', async () => {
		const chat = chatOn();
		await chat.say('hi');
		await chat.say('order');
		// The record as an earlier release wrote it: reached state → day, the stop an object.
		const [namespace, key] = ['scenario:default', 'bot_shop:cl_ada'];
		const stored = (await chat.store.read(namespace, key))!;
		const record = JSON.parse(stored.value) as Record<string, unknown>;
		expect(typeof record.reached).toBe('string');
		const minute = Math.floor(chat.time / MINUTE);
		record.reached = { welcome: DAY, route: DAY, check: DAY, ask: DAY };
		record.stop = { day: DAY, field: `stopLive:ask:${minute}`, minute };
		const version = await chat.store.write(namespace, key, JSON.stringify(record), stored.version);
		expect(version).not.toBeNull();
		// Back to the start and round again: the same counts as the loop written in this form.
		for (const text of ['back', 'order']) await chat.say(text);
		const states = await read(chat);
		for (const name of ['welcome', 'route', 'check', 'ask'])
			expect(states[name]).toMatchObject({ reached: 1, visits: 2 });
		expect(states.ask).toMatchObject({ inProgress: 1, dropped: 0 });
		expect(states.welcome).toMatchObject({ inProgress: 0, dropped: 0 });
		const after = JSON.parse((await chat.store.read(namespace, key))!.value) as Record<
			string,
			unknown
		>;
		expect(after.reached).toBe(`@${DAY}|welcome|route|check|ask|`);
		expect(after.stop).toBe(`${DAY} stopLive:ask:${Math.floor(chat.time / MINUTE)}`);
	});
});
