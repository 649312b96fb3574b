import { compileScenario } from '../../runtime/scenarios';
import { splitPoint, variantAt } from '../../runtime/scenarios/format/split';
import { validateScenario, parseScenario } from '../../runtime/scenarios/format/validate';
import { scenarioWarnings } from '../../runtime/scenarios/format/warnings';
import { scenarioGraph } from '../../runtime/scenarios/offline/picture/graph';
import { trafficOf } from '../../runtime/scenarios/analytics/reading';
import { renderDiagram } from '../../runtime/scenarios/offline/diagram';
import { renderPicture } from '../../runtime/scenarios/offline/picture/svg';
import { backends, Chat, START } from './harness';
import { opener } from './format-fixture';
import { greetingOf, greetingTest } from './split-fixture';

describe('the split format', () => {
	it('accepts a split and draws each variant with its share', () => {
		const doc = parseScenario(
			greetingTest({
				variants: [
					{ name: 'short', weight: 3, target: 'short' },
					{ name: 'warm', weight: 1, target: 'warm' },
				],
			}),
		);
		const labels = scenarioGraph(doc).edges.filter((e) => e.kind === 'split');
		expect(labels.map((e) => [e.label, e.target])).toEqual([
			['short · 75%', 'short'],
			['warm · 25%', 'warm'],
		]);
		expect(scenarioWarnings(doc)).toEqual([]);
	});

	it('names each broken field and the rule', () => {
		const doc = greetingTest({
			variants: [
				{ name: 'short', weight: 0, target: 'short' },
				{ name: 'short', weight: 1, target: 'hello' },
				{ name: 'x', weight: 1 },
			],
			winner: 'sort',
			goal: { state: 'orderd' },
		});
		(doc.states as Record<string, Record<string, unknown>>).hello.on = [];
		const result = validateScenario(doc);
		expect(result.ok).toBe(false);
		const issues = result.issues.map((i) => `${i.path}: ${i.message}`);
		expect(issues).toEqual(
			expect.arrayContaining([
				'states.hello.split.variants[0].weight: must be more than 0',
				'states.hello.split.variants[1].name: "short" names two variants',
				'states.hello.split.variants[1].target: cannot be the state itself (it would split again forever)',
				'states.hello.split.variants[2].target: is required (or end the conversation, or jump with "goto")',
				'states.hello.split.winner: no variant named "sort" (did you mean "short"?) (variants: short, short, x)',
				expect.stringMatching(/^states\.hello\.split\.goal\.state: no state named "orderd"/),
				'states.hello.on: cannot be used with "split" (the state sends the client down a variant on entry)',
			]),
		);
	});

	it('refuses one variant, and two splits under one test name', () => {
		const one = validateScenario(
			greetingTest({ variants: [{ name: 'a', weight: 1, target: 'short' }] }),
		);
		expect(one.issues.map((i) => `${i.path}: ${i.message}`)).toContain(
			'states.hello.split.variants: must list at least 2 variants',
		);
		const doc = greetingTest();
		const states = doc.states as Record<string, unknown>;
		states.again = {
			split: {
				name: 'greeting',
				variants: [
					{ name: 'a', weight: 1, target: 'short' },
					{ name: 'b', weight: 1, target: 'warm' },
				],
			},
		};
		const two = validateScenario(doc);
		expect(two.issues.map((i) => `${i.path}: ${i.message}`)).toContain(
			'states.again.split.name: the test "greeting" is already the split of state hello; give each split its own "name"',
		);
	});

	it('warns of a split without a goal, an ended test, and variants that differ in nothing', () => {
		const doc = parseScenario(
			greetingTest({
				goal: undefined,
				winner: 'warm',
				variants: [
					{ name: 'short', weight: 1, target: 'short' },
					{ name: 'warm', weight: 1, target: 'short' },
				],
			}),
		);
		expect(scenarioWarnings(doc).map((w) => w.path)).toEqual([
			'states.hello.split',
			'states.hello.split.winner',
			'states.hello.split.variants[1].target',
		]);
		expect(
			scenarioGraph(doc)
				.edges.filter((e) => e.kind === 'split')
				.map((e) => e.label),
		).toEqual(['short · 0%', 'warm · 100% (winner)']);
	});
});

describe("a client's place in a test", () => {
	it('is the same for the same client and test, and spreads clients evenly', () => {
		expect(splitPoint('greeting', 'cl_1')).toBe(splitPoint('greeting', 'cl_1'));
		expect(splitPoint('greeting', 'cl_1')).not.toBe(splitPoint('other', 'cl_1'));
		const variants = [
			{ name: 'a', weight: 1 },
			{ name: 'b', weight: 3 },
		];
		let b = 0;
		for (let i = 0; i < 10_000; i++)
			if (variantAt(variants, splitPoint('t', `cl_${i}`)) === 'b') b++;
		// 75 % ± 1.5 points (more than 5 standard deviations of 0.43 points).
		expect(Math.abs(b / 100 - 75)).toBeLessThan(1.5);
	});
});

describe.each(backends())('split step ($name store)', (backend) => {
	const open = opener(backend);

	it('sends each client down its own variant, every time', async () => {
		const chat = open([greetingTest()]);
		const seen = new Map<string, string>();
		for (let i = 0; i < 40; i++) seen.set(`cl_${i}`, greetingOf(await chat.say('hi', `cl_${i}`)));
		expect(new Set(seen.values())).toEqual(new Set(['short', 'warm']));
		// Half end their conversation; every client comes back to the split and keeps its variant.
		for (let i = 0; i < 40; i += 2) expect(await chat.say('yes', `cl_${i}`)).toEqual(['Ordered.']);
		for (let i = 0; i < 40; i++)
			expect(greetingOf(await chat.say('hi again', `cl_${i}`))).toBe(seen.get(`cl_${i}`));
	});

	it('End Test: new clients get the winner, clients already assigned keep theirs', async () => {
		const chat = open([greetingTest()]);
		const before = new Map<string, string>();
		for (let i = 0; i < 20; i++) before.set(`cl_${i}`, greetingOf(await chat.say('hi', `cl_${i}`)));
		expect([...before.values()]).toContain('short');
		// Half of them finish: their next conversation keeps the variant all the same.
		for (let i = 0; i < 20; i += 2) await chat.say('yes', `cl_${i}`);
		chat.engine = chat.newEngine([
			compileScenario({ ...greetingTest({ winner: 'warm' }), version: 2 }),
		]);
		for (let i = 0; i < 20; i++)
			expect(greetingOf(await chat.say('hi again', `cl_${i}`))).toBe(before.get(`cl_${i}`));
		for (let i = 20; i < 40; i++) expect(greetingOf(await chat.say('hi', `cl_${i}`))).toBe('warm');
	});
});

describe('a split in the pictures', () => {
	it('draws each variant with its share, and with traffic how many clients took it', async () => {
		const doc = greetingTest();
		expect(renderDiagram(parseScenario(doc))).toContain('  hello --> short : short · 50%\n');
		const chat = new Chat([doc]);
		const took = { short: 0, warm: 0 };
		for (let i = 0; i < 30; i++) took[greetingOf(await chat.say('hi', `cl_${i}`))]++;
		const report = await chat.engine.analytics({ from: START, to: START, now: chat.time });
		const svg = renderPicture(doc, { traffic: trafficOf(report) });
		for (const variant of ['short', 'warm'] as const) {
			expect(svg).toContain(`>${variant} · 50% ×${took[variant]}</text>`);
			expect(trafficOf(report).edges).toContainEqual({
				from: 'hello',
				to: variant,
				count: took[variant],
			});
		}
	});
});

describe.each(backends())('split goals ($name store)', (backend) => {
	const open = opener(backend);
	const goals = async (chat: Chat) => {
		const report = await chat.engine.analytics({ from: START, to: START, now: chat.time });
		return Object.fromEntries(
			report.splits[0].variants.map((v) => [v.variant, [v.clients, v.goal]]),
		);
	};

	it('counts a tag goal once per client, when the scenario adds the tag after the split', async () => {
		const doc = greetingTest({ goal: { tag: 'buyer' } });
		const states = doc.states as Record<string, Record<string, unknown>>;
		const buys = { match: { equals: 'buy' }, actions: [{ addTags: ['buyer'] }], target: 'ordered' };
		states.short.on = [buys, ...(states.short.on as unknown[])];
		states.warm.on = [buys, ...(states.warm.on as unknown[])];
		const chat = open([doc]);
		const variant = greetingOf(await chat.say('hi', 'cl_ada'));
		await chat.say('buy', 'cl_ada');
		await chat.say('hi', 'cl_ada');
		await chat.say('buy', 'cl_ada');
		// "yes" orders without the tag: no goal.
		const other = greetingOf(await chat.say('hi', 'cl_grace'));
		await chat.say('yes', 'cl_grace');
		const counted = await goals(chat);
		if (variant === other) expect(counted[variant]).toEqual([2, 1]);
		else
			expect([counted[variant], counted[other]]).toEqual([
				[1, 1],
				[1, 0],
			]);
	});
});
