import { trafficOf } from '../../runtime/scenarios';
import { backends, Chat, compiled, MINUTE, scenario, START } from './harness';

const FUNNEL = scenario(
	{
		menu: {
			messages: ['Menu'],
			on: [
				{ match: { equals: 'name' }, target: 'name' },
				{ match: { equals: 'bye' }, actions: [{ end: true }] },
			],
			after: { minutes: 10, send: 'Still there?' },
		},
		name: {
			messages: ['Your email?'],
			capture: {
				into: 'email',
				check: 'email',
				retry: 'Not an email',
				retries: 1,
				giveUp: { target: 'agent' },
				target: 'menu',
			},
		},
		agent: { messages: ['Agent coming'], actions: [{ handoff: true }] },
	},
	{ id: 'funnel', fallback: 'Sorry?' },
);

const DAY = '2026-01-05';

/** Three clients: one hands over, one ends, one stays silent in the menu. */
async function play(chat: Chat): Promise<void> {
	await chat.say('hi');
	await chat.say('what');
	chat.time += 2 * MINUTE;
	await chat.say('name');
	await chat.say('nope');
	await chat.say('still no');
	await chat.engine.release('bot_shop', 'cl_ada');
	await chat.say('hi', 'cl_grace');
	chat.time += 5 * MINUTE;
	await chat.say('bye', 'cl_grace');
	await chat.say('hi', 'cl_x');
	expect(await chat.wait(11)).toEqual(['Still there?']);
}

describe.each(backends())('analytics counters: $name', (backend) => {
	it('counts each step where it happened and reads the funnel back', async () => {
		const chat = new Chat([FUNNEL], { openStore: backend.open });
		await play(chat);
		const report = await chat.engine.analytics({ from: DAY, to: DAY, now: chat.time });
		expect(report.versions).toHaveLength(1);
		const [funnel] = report.versions;
		expect(funnel).toMatchObject({ scenario: 'funnel', version: 1, from: DAY, to: DAY });
		expect(funnel.mainPath).toEqual(['menu', 'name', 'agent']);
		expect(funnel.summary).toEqual({
			conversations: 3,
			completed: 1,
			completionRate: 1 / 3,
			handoffs: 1,
			handoffRate: 1 / 3,
			dropped: 0,
			inProgress: 2,
			releases: 1,
			messages: 8,
			fallbacks: 1,
			fallbackRate: 1 / 8,
			lateMessages: 0,
			replies: { sent: 8, unknown: 0, failed: 0 },
			calls: {},
		});
		const byState = Object.fromEntries(funnel.states.map((s) => [s.state, s]));
		expect(funnel.states.map((s) => s.state)).toEqual(['menu', 'name', 'agent', '__end']);
		expect(byState.menu).toEqual({
			state: 'menu',
			reached: 3,
			visits: 3,
			completed: 0,
			handedOff: 0,
			dropped: 0,
			// cl_x, answered by its timer, within the quiet time.
			inProgress: 1,
			dropOffShare: 0,
			// Waits of 2 and 5 minutes: the median's bucket ends at 128 s.
			medianToNextMs: 128_000,
			edges: [
				{ to: '__end', count: 1 },
				{ to: 'name', count: 1 },
			],
			keywordEdges: [],
			now: 1,
			fallbacks: 1,
			retries: 0,
			giveUps: 0,
			timers: 1,
		});
		expect(byState.name).toMatchObject({ reached: 1, inProgress: 0, retries: 1, giveUps: 1 });
		expect(byState.name.edges).toEqual([{ to: 'agent', count: 1 }]);
		// Ada was handed off, then released: the bot has her again, in the agent state.
		expect(byState.agent).toMatchObject({ reached: 1, handedOff: 0, inProgress: 1, now: 1 });
		expect(byState.__end).toMatchObject({ reached: 1, completed: 1, dropOffShare: 0 });
		// Five minutes of quiet: cl_x and Ada have been silent longer.
		const quiet = await chat.engine.analytics({
			from: DAY,
			to: DAY,
			now: chat.time,
			quietMs: 5 * MINUTE,
		});
		const stops = quiet.versions[0].states.map((s) => [s.state, s.dropped, s.inProgress]);
		expect(stops).toEqual([
			['menu', 1, 0],
			['name', 0, 0],
			['agent', 1, 0],
			['__end', 0, 0],
		]);
		expect(quiet.versions[0].states[0].dropOffShare).toBe(1 / 3);
		const stop = { completed: 0, handedOff: 0, dropped: 0 };
		expect(trafficOf(report)).toEqual({
			states: {
				menu: { entered: 3, reached: 3, visits: 3, ...stop, dropOff: 0, inProgress: 1 },
				name: { entered: 1, reached: 1, visits: 1, ...stop, dropOff: 0, inProgress: 0 },
				agent: { entered: 1, reached: 1, visits: 1, ...stop, dropOff: 0, inProgress: 1 },
				__end: {
					entered: 1,
					reached: 1,
					visits: 1,
					...stop,
					completed: 1,
					dropOff: 0,
					inProgress: 0,
				},
			},
			edges: [
				{ from: 'menu', to: '__end', count: 1 },
				{ from: 'menu', to: 'name', count: 1 },
				{ from: 'name', to: 'agent', count: 1 },
			],
			keywordEdges: [],
			mainPath: ['menu', 'name', 'agent'],
		});
	});

	it('splits the period per UTC day, and reads nothing outside it', async () => {
		const chat = new Chat([FUNNEL], { openStore: backend.open });
		await chat.say('hi');
		chat.time = START + 86_400_000;
		await chat.say('name');
		const perDay = await chat.engine.analytics({ from: DAY, to: '2026-01-07', perDay: true });
		expect(perDay.versions.map((v) => [v.from, v.summary.messages])).toEqual([
			[DAY, 1],
			['2026-01-06', 1],
		]);
		const before = await chat.engine.analytics({ from: '2026-01-01', to: '2026-01-04' });
		expect(before.versions.map((v) => v.summary.conversations)).toEqual([0]);
		expect(() => chat.engine.analytics({ from: '2026-01-07', to: DAY })).rejects.toThrow(
			'From (2026-01-07) is after To (2026-01-05)',
		);
	});

	it('moves a conversation that goes on under a new version from one to the other, no edge', async () => {
		const chat = new Chat([FUNNEL], { openStore: backend.open });
		await chat.say('hi');
		// Live Conversations: Move to This Version.
		const move = { liveConversations: 'move' } as const;
		chat.engine = chat.newEngine([compiled({ ...FUNNEL, version: 2 })], undefined, move);
		expect(await chat.say('what')).toEqual(['Sorry?']);
		const { versions } = await chat.engine.analytics({ from: DAY, to: DAY, now: chat.time });
		const menu = versions.map((v) => [v.version, v.states.find((s) => s.state === 'menu')]);
		expect(menu).toEqual([
			[1, expect.objectContaining({ reached: 1, inProgress: 0, edges: [], now: 0 })],
			[2, expect.objectContaining({ reached: 1, inProgress: 1, edges: [], now: 1, fallbacks: 1 })],
		]);
	});

	it('counts a conversation that finishes on its version under that version', async () => {
		const chat = new Chat([FUNNEL], { openStore: backend.open });
		await chat.say('hi');
		chat.engine = chat.newEngine([compiled({ ...FUNNEL, version: 2 })]);
		expect(await chat.say('what')).toEqual(['Sorry?']);
		const { versions } = await chat.engine.analytics({ from: DAY, to: DAY, now: chat.time });
		const menu = versions.map((v) => [v.version, v.states.find((s) => s.state === 'menu')]);
		expect(menu).toEqual([
			[1, expect.objectContaining({ reached: 1, inProgress: 1, now: 1, fallbacks: 1 })],
		]);
	});

	it('writes no counters when analytics are off', async () => {
		const chat = new Chat([FUNNEL], { openStore: backend.open, engine: { analytics: false } });
		await chat.say('hi');
		expect((await chat.engine.analytics({ from: DAY, to: DAY })).versions).toEqual([]);
	});
});
