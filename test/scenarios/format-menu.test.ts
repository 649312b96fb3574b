import { chooseOption, prepareMenu } from '../../runtime/scenarios/format/menu';
import { parseScenario, validateScenario } from '../../runtime/scenarios/format/validate';
import { scenarioWarnings } from '../../runtime/scenarios/format/warnings';
import { scenarioGraph } from '../../runtime/scenarios/offline/picture/graph';
import { backends, scenario } from './harness';
import { opener } from './format-fixture';

/** The pizza shop's greeting: a menu of three options, a keyword beside it. */
const pizza = (menu: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
	scenario(
		{
			greet: {
				messages: ['Welcome to Pizza Place!'],
				menu: {
					text: 'What can I do for you?',
					options: [
						{ label: 'Order a pizza', synonyms: ['order'], target: 'size' },
						{ label: 'Opening hours', synonyms: ['hours'], target: 'hours' },
						{ label: 'Talk to a person', target: 'human', actions: [{ addTags: ['asked-human'] }] },
					],
					into: 'choice',
					...menu,
				},
			},
			size: { messages: ['Which size ({{vars.choice}})?'] },
			hours: { messages: ['We open at noon.'], end: true },
			human: { messages: ['A person will answer.'], actions: [{ handoff: true }] },
			stopped: { messages: ['Stopped.'], end: true },
		},
		{
			keywords: [{ match: { equals: 'stop' }, target: 'stopped' }],
			firstMessage: 'greet',
			...extra,
		},
	);

const LISTED = 'What can I do for you?\n1. Order a pizza\n2. Opening hours\n3. Talk to a person';

describe('menu answers', () => {
	const menu = prepareMenu([
		{ label: 'Order a pizza', synonyms: ['order'] },
		{ label: 'Opening hours', synonyms: ['hours', 'horaires'] },
		{ label: 'Talk to a person' },
	]);
	it.each([
		['2', 1],
		[' 3. ', 2],
		['#1', 0],
		['OPENING HOURS', 1],
		['opening-hours!', 1],
		['Horaires', 1],
		['hôurs', 1],
		['oder', 0],
		['talk to a persn', 2],
		['openin hour', 1],
	])('"%s" chooses option %d', (answer, index) => {
		expect(chooseOption(menu, answer)).toBe(index);
	});
	it.each(['4', '0', 'pizza', 'hrs', '', 'order hours'])('"%s" chooses nothing', (answer) => {
		expect(chooseOption(menu, answer)).toBeUndefined();
	});
	it('a near spelling as close to two options chooses neither', () => {
		const close = prepareMenu([{ label: 'cart' }, { label: 'card' }]);
		expect(chooseOption(close, 'carx')).toBeUndefined();
		expect(chooseOption(close, 'card')).toBe(1);
	});
});

describe.each(backends())('menu step ($name store)', (backend) => {
	const open = opener(backend);

	it('lists the options numbered after the messages, in one message', async () => {
		const chat = open([pizza()]);
		expect(await chat.say('hi')).toEqual(['Welcome to Pizza Place!', LISTED]);
	});

	it('takes the number, the label, a synonym or a near spelling, and stores the label', async () => {
		for (const answer of ['1', 'order a pizza', 'Order', 'ordr a piza']) {
			const chat = open([pizza()]);
			await chat.say('hi');
			expect(await chat.say(answer)).toEqual(['Which size (Order a pizza)?']);
			expect((await chat.state())?.state).toBe('size');
		}
	});

	it('retries with the numbers by default, then gives up when told', async () => {
		let chat = open([pizza()]);
		await chat.say('hi');
		expect(await chat.say('pineapple')).toEqual(['Please answer with 1, 2 or 3.']);
		expect(await chat.say('2')).toEqual(['We open at noon.']);
		chat = open([
			pizza({
				retry: 'Pick 1 to 3, {{message.text}}?',
				retries: 1,
				giveUp: { say: 'Let me get someone.', target: 'human' },
			}),
		]);
		await chat.say('hi');
		expect(await chat.say('what')).toEqual(['Pick 1 to 3, what?']);
		expect(await chat.say('huh')).toEqual(['Let me get someone.', 'A person will answer.']);
	});

	it("counts each option's arrow, its retries and give-ups in the analytics", async () => {
		const chat = open([pizza({ retries: 1, giveUp: { target: 'human' } })]);
		await chat.say('hi');
		await chat.say('2');
		await chat.say('hi', 'cl_grace');
		await chat.say('what', 'cl_grace');
		await chat.say('huh', 'cl_grace');
		const day = new Date(chat.time).toISOString().slice(0, 10);
		const [report] = (await chat.engine.analytics({ from: day, to: day })).versions;
		const greet = report.states.find((s) => s.state === 'greet');
		expect(greet).toMatchObject({ reached: 2, retries: 1, giveUps: 1 });
		expect(greet?.edges).toEqual([
			{ to: 'hours', count: 1 },
			{ to: 'human', count: 1 },
		]);
	});

	it("runs the chosen option's actions; a keyword wins over the menu", async () => {
		let chat = open([pizza()]);
		await chat.say('hi');
		await chat.say('3');
		expect(chat.api.calls.filter((c) => c.kind === 'tags')).toEqual([
			{ kind: 'tags', clientId: 'cl_ada', add: ['asked-human'], remove: [] },
		]);
		chat = open([pizza({ options: [{ label: 'Stop', target: 'hours' }] })]);
		await chat.say('hi');
		expect(await chat.say('stop')).toEqual(['Stopped.']);
	});
});

describe('menu validation and graph', () => {
	const issues = (doc: unknown) =>
		validateScenario(doc).issues.map((i) => `${i.path}: ${i.message}`);

	it('is valid as written, with no warning (a menu answers every message), and each option is an arrow', () => {
		expect(issues(pizza())).toEqual([]);
		const withOn = pizza();
		(withOn.states as Record<string, Record<string, unknown>>).greet.on = [
			{ match: { equals: 'menu' }, target: 'greet' },
		];
		expect(scenarioWarnings(parseScenario(withOn))).toEqual([]);
		const arrows = scenarioGraph(pizza()).edges.filter((e) => e.kind === 'menu');
		expect(arrows.map((e) => [e.source, e.target, e.label])).toEqual([
			['greet', 'size', '1. Order a pizza'],
			['greet', 'hours', '2. Opening hours'],
			['greet', 'human', '3. Talk to a person'],
		]);
	});

	it('names an unknown target, a colliding answer, a number of another option', () => {
		const found = issues(
			pizza({
				options: [
					{ label: 'Order', target: 'sise' },
					{ label: 'Hours', synonyms: ['ORDER!', '1'] },
				],
			}),
		);
		expect(found).toEqual(
			expect.arrayContaining([
				expect.stringMatching(
					/^states\.greet\.menu\.options\[0\]\.target: no state named "sise" \(did you mean "size"\?\)/,
				),
				'states.greet.menu.options[1].synonyms[0]: "ORDER!" already chooses option 1 (its label); each answer may choose one option only',
				'states.greet.menu.options[1].synonyms[1]: "1" is option 1\'s number: answering it chooses option 1',
			]),
		);
	});

	it('refuses a menu beside a capture or a call, and retries without a give-up', () => {
		const doc = pizza({ retries: 2 });
		const greet = (doc.states as Record<string, Record<string, unknown>>).greet;
		greet.capture = {
			into: 'x',
			check: 'text',
			retry: 'again',
			retries: 1,
			giveUp: { target: 'hours' },
		};
		expect(issues(doc)).toEqual(
			expect.arrayContaining([
				'states.greet.menu.retries: has no effect without "giveUp" (the menu asks again until an option is chosen)',
				'states.greet.menu: cannot be used with "capture" (both wait for the answer to a question)',
			]),
		);
		delete greet.capture;
		greet.call = { workflow: 'w', success: { target: 'hours' }, failure: { target: 'hours' } };
		expect(issues({ ...doc, workflows: { w: {} } })).toContain(
			'states.greet.menu: cannot be used with "call" (the state waits for the workflow\'s result)',
		);
	});
});
