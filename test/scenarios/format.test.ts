import { backends, Chat, example, MINUTE, scenario, START } from './harness';

/** A menu state whose transitions each answer with the matcher's name. */
const menu = (on: unknown[], extra: Record<string, unknown> = {}) =>
	scenario(
		{
			start: { messages: ['Welcome'], on: [{ match: { any: true }, target: 'menu' }] },
			menu: { messages: ['Menu'], on, fallback: 'No match' },
		},
		extra,
	);
const answer = (match: unknown, text: string, more: Record<string, unknown> = {}) => ({
	match,
	actions: [{ reply: text }],
	...more,
});

/** Starts a conversation and walks into the menu. */
async function inMenu(chat: Chat, client = 'cl_ada'): Promise<void> {
	await chat.say('hello', client);
	await chat.say('go', client);
}

describe.each(backends())('scenario format ($name store)', (backend) => {
	const open = (docs: unknown[], clients?: ConstructorParameters<typeof Chat>[1]) => {
		return new Chat(docs, { ...clients, openStore: backend.open });
	};

	describe('the first message', () => {
		it('starts the conversation: the start state speaks, the message is not matched', async () => {
			const chat = open([menu([answer({ any: true }, 'matched')])]);
			expect(await chat.say('anything')).toEqual(['Welcome']);
			expect(chat.last?.status).toBe('started');
			expect(await chat.say('go')).toEqual(['Menu']);
			expect(await chat.say('x')).toEqual(['matched']);
		});
	});

	describe('matchers', () => {
		it('equals: whole message, trimmed, case-insensitive, any of a list', async () => {
			const chat = open([menu([answer({ equals: ['yes', 'Sure thing'] }, 'equals')])]);
			await inMenu(chat);
			expect(await chat.say('  YES ')).toEqual(['equals']);
			expect(await chat.say('sure   THING')).toEqual(['equals']);
			expect(await chat.say('yes please')).toEqual(['No match']);
		});

		it('contains and starts-with, case-insensitive', async () => {
			const chat = open([
				menu([
					answer({ startsWith: 'track' }, 'startsWith'),
					answer({ contains: ['order', 'parcel'] }, 'contains'),
				]),
			]);
			await inMenu(chat);
			expect(await chat.say('Where is my ORDER?')).toEqual(['contains']);
			expect(await chat.say('my parcel')).toEqual(['contains']);
			expect(await chat.say('Track my order')).toEqual(['startsWith']);
			expect(await chat.say('I want to track')).toEqual(['No match']);
		});

		it('regex: case-insensitive by default, exact case when told', async () => {
			const chat = open([
				menu([
					answer({ regex: '^ORD-\\d{3}$', caseSensitive: true }, 'exact'),
					answer({ regex: '^ref-\\d+$' }, 'regex'),
				]),
			]);
			await inMenu(chat);
			expect(await chat.say('REF-42')).toEqual(['regex']);
			expect(await chat.say('ORD-123')).toEqual(['exact']);
			expect(await chat.say('ord-123')).toEqual(['No match']);
		});

		it('case-sensitive equals', async () => {
			const chat = open([menu([answer({ equals: 'OK', caseSensitive: true }, 'ok')])]);
			await inMenu(chat);
			expect(await chat.say('ok')).toEqual(['No match']);
			expect(await chat.say('OK')).toEqual(['ok']);
		});

		it('number range, inclusive, with a decimal comma', async () => {
			const chat = open([
				menu([
					answer({ number: { min: 1, max: 5 } }, 'in range'),
					answer({ number: {} }, 'a number'),
				]),
			]);
			await inMenu(chat);
			expect(await chat.say('1')).toEqual(['in range']);
			expect(await chat.say('4,5')).toEqual(['in range']);
			expect(await chat.say('5')).toEqual(['in range']);
			expect(await chat.say('6')).toEqual(['a number']);
			expect(await chat.say('-2.5')).toEqual(['a number']);
			expect(await chat.say('five')).toEqual(['No match']);
		});

		it('any, and the first matching transition wins', async () => {
			const chat = open([menu([answer({ equals: 'a' }, 'first'), answer({ any: true }, 'any')])]);
			await inMenu(chat);
			expect(await chat.say('a')).toEqual(['first']);
			expect(await chat.say('whatever')).toEqual(['any']);
		});
	});

	describe('guards', () => {
		it('on variables: set, equals, not equals, number range', async () => {
			const chat = open([
				scenario(
					{
						start: { messages: ['Hi'], on: [{ match: { any: true }, target: 'menu' }] },
						menu: {
							on: [
								{
									match: { startsWith: 'plan ' },
									actions: [{ set: { plan: '{{message.text}}' } }],
								},
								{ match: { number: {} }, actions: [{ set: { age: '{{message.text}}' } }] },
								answer({ equals: 'check' }, 'no plan', { when: [{ var: 'plan', set: false }] }),
								answer({ equals: 'check' }, 'pro adult', {
									when: [
										{ var: 'plan', equals: ['PLAN PRO', 'plan team'] },
										{ var: 'age', min: 18 },
									],
								}),
								answer({ equals: 'check' }, 'not free', {
									when: [{ var: 'plan', notEquals: 'plan free' }],
								}),
								answer({ equals: 'check' }, 'other'),
							],
						},
					},
					{ variables: ['plan', 'age'] },
				),
			]);
			await chat.say('hi');
			await chat.say('go');
			expect(await chat.say('check')).toEqual(['no plan']);
			await chat.say('plan free');
			expect(await chat.say('check')).toEqual(['other']);
			await chat.say('plan pro');
			expect(await chat.say('check')).toEqual(['not free']);
			await chat.say('18');
			expect(await chat.say('check')).toEqual(['pro adult']);
			await chat.say('17');
			expect(await chat.say('check')).toEqual(['not free']);
		});

		it('on tags: from the client profile, and as the scenario changes them', async () => {
			const chat = open([
				menu([
					{
						match: { equals: 'join' },
						actions: [{ addTags: ['member'] }, { removeTags: ['vip'] }],
					},
					answer({ equals: 'who' }, 'member', { when: [{ tag: 'member' }] }),
					answer({ equals: 'who' }, 'vip customer', {
						when: [{ tag: 'vip' }, { tag: 'customer' }],
					}),
					answer({ equals: 'who' }, 'not a lead', { when: [{ notTag: 'lead' }] }),
					answer({ equals: 'who' }, 'lead'),
				]),
			]);
			await inMenu(chat, 'cl_ada');
			await inMenu(chat, 'cl_grace');
			expect(await chat.say('who', 'cl_ada')).toEqual(['vip customer']);
			expect(await chat.say('who', 'cl_grace')).toEqual(['lead']);
			await chat.say('join', 'cl_ada');
			expect(await chat.say('who', 'cl_ada')).toEqual(['member']);
			expect((await chat.state('cl_ada'))?.tags).toEqual(['customer', 'member']);
		});
	});

	describe('input capture', () => {
		const capture = (check: unknown, retries = 2) =>
			scenario({
				ask: {
					messages: ['Your answer?'],
					capture: {
						into: 'answer',
						check,
						retry: 'Try again ({{message.text}} is not valid)',
						retries,
						giveUp: { say: 'I give up.', target: 'human' },
						target: 'done',
					},
				},
				done: { messages: ['Got {{vars.answer}}'] },
				human: { messages: ['A person will help'] },
			});

		it.each([
			['email', ' Ada@Example.COM ', 'ada@example.com'],
			['phone', '+44 (20) 7123-4567', '+442071234567'],
			['phone', '0044 20 7123 4567', '+442071234567'],
			['number', '3,50', '3.5'],
			['text', 'anything at all', 'anything at all'],
		])('checks %s and stores it normalised', async (check, input, stored) => {
			const chat = open([capture(check)]);
			await chat.say('hi');
			expect(await chat.say(input)).toEqual([`Got ${stored}`]);
			expect((await chat.state())?.vars).toEqual({ answer: stored });
		});

		it('checks a regex, one of a list (stored as the scenario spells it), a number range', async () => {
			let chat = open([capture({ regex: '^[A-Z]{2}\\d{4}$' })]);
			await chat.say('hi');
			expect(await chat.say('ab1234')).toEqual(['Got ab1234']);
			chat = open([capture({ oneOf: ['Small', 'Large'] })]);
			await chat.say('hi');
			expect(await chat.say('medium')).toEqual(['Try again (medium is not valid)']);
			expect(await chat.say('LARGE')).toEqual(['Got Large']);
			chat = open([capture({ number: { min: 1, max: 10 } })]);
			await chat.say('hi');
			expect(await chat.say('11')).toEqual(['Try again (11 is not valid)']);
			expect(await chat.say('10')).toEqual(['Got 10']);
		});

		it('sends the retry message N times, then gives up to the given state', async () => {
			const chat = open([capture('email', 2)]);
			await chat.say('hi');
			expect(await chat.say('nope')).toEqual(['Try again (nope is not valid)']);
			expect(await chat.say('still no')).toEqual(['Try again (still no is not valid)']);
			expect(await chat.say('never')).toEqual(['I give up.', 'A person will help']);
			expect((await chat.state())?.state).toBe('human');
		});

		it('counts tries per visit: re-entering the state starts over', async () => {
			const doc = capture('email', 1);
			(doc.states as Record<string, Record<string, unknown>>).ask.on = [
				{ match: { equals: 'again' }, target: 'ask' },
			];
			const chat = open([doc]);
			await chat.say('hi');
			expect(await chat.say('x')).toEqual(['Try again (x is not valid)']);
			expect(await chat.say('again')).toEqual(['Your answer?']);
			expect(await chat.say('y')).toEqual(['Try again (y is not valid)']);
			expect(await chat.say('a@b.co')).toEqual(['Got a@b.co']);
		});
	});

	describe('actions', () => {
		it('reply renders client fields (with fallbacks), custom fields, tags, variables and the message', async () => {
			const chat = open([
				scenario(
					{
						a: {
							messages: [
								'Hi {{client.first_name}} {{client.last_name}} ({{client.email}}, {{client.phone}})',
								'Tier {{client.custom_fields.loyalty.tier}}, tags {{client.tags}}, you said "{{message.text}}"',
								'Nick: {{client.custom_fields.nickname|none}}; code: {{vars.code|unset}}',
							],
						},
					},
					{ variables: ['code'] },
				),
			]);
			expect(await chat.say('Hello there')).toEqual([
				'Hi Ada Lovelace (ada@example.com, +442071234567)',
				'Tier gold, tags customer, vip, you said "Hello there"',
				'Nick: none; code: unset',
			]);
			const stranger = await chat.say('hey', 'cl_new');
			expect(stranger[0]).toBe('Hi   (, )');
		});

		it('adds and removes tags through the API client, in order', async () => {
			const chat = open([
				menu([
					{
						match: { equals: 'up' },
						actions: [{ addTags: ['lead', 'hot'] }, { reply: 'Tagged' }, { removeTags: ['vip'] }],
					},
				]),
			]);
			await inMenu(chat);
			expect(await chat.say('up')).toEqual(['Tagged']);
			expect(chat.api.calls.filter((c) => c.kind === 'tags')).toEqual([
				{ kind: 'tags', clientId: 'cl_ada', add: ['lead', 'hot'], remove: [] },
				{ kind: 'tags', clientId: 'cl_ada', add: [], remove: ['vip'] },
			]);
			expect(chat.last?.actions.map((a) => [a.kind, a.status])).toEqual([
				['tags', 'done'],
				['reply', 'done'],
				['tags', 'done'],
			]);
			expect(await chat.api.getClient('cl_ada')).toMatchObject({
				tags: ['customer', 'lead', 'hot'],
			});
		});

		it('sets variables from templates', async () => {
			const chat = open([
				menu(
					[
						{
							match: { startsWith: 'call me' },
							actions: [
								{ set: { nick: '{{message.text}}!', seen: 'yes' } },
								{ reply: '{{vars.nick}} {{vars.seen}}' },
							],
						},
					],
					{
						variables: ['nick', 'seen'],
					},
				),
			]);
			await inMenu(chat);
			expect(await chat.say('call me Al')).toEqual(['call me Al! yes']);
		});

		it('hands off to a human: silent (keywords and fallback too) until released, no timers', async () => {
			const chat = open([
				menu(
					[
						{
							match: { equals: 'human' },
							actions: [{ reply: 'Connecting you' }, { handoff: true }],
						},
						answer({ equals: 'ping' }, 'pong'),
					],
					{ keywords: [{ match: { equals: 'stop' }, actions: [{ reply: 'Bye' }, { end: true }] }] },
				),
			]);
			await inMenu(chat);
			expect(await chat.say('human')).toEqual(['Connecting you']);
			expect(chat.last?.handoff).toBe(true);
			expect(await chat.say('ping')).toEqual([]);
			expect(chat.last?.status).toBe('silenced');
			expect(await chat.say('stop')).toEqual([]);
			expect(await chat.say('gibberish')).toEqual([]);
			expect(await chat.engine.release('bot_shop', 'cl_ada')).toMatchObject({ released: true });
			expect(await chat.engine.release('bot_shop', 'cl_ada')).toMatchObject({ released: false });
			expect(await chat.say('ping')).toEqual(['pong']);
		});

		it('jumps to another scenario, at its start or at a state, keeping the variables it declares', async () => {
			const main = scenario(
				{
					a: {
						capture: {
							into: 'email',
							check: 'email',
							retry: 'Email?',
							retries: 1,
							giveUp: { target: 'a' },
						},
						on: [
							{
								match: { equals: 'support' },
								actions: [{ reply: 'Switching' }, { goto: { scenario: 'support' } }],
							},
							{
								match: { equals: 'agent' },
								actions: [{ goto: { scenario: 'support', state: 'agent' } }],
							},
						],
					},
				},
				{ id: 'main' },
			);
			const support = scenario(
				{
					welcome: {
						messages: ['Support here, {{vars.email|stranger}}'],
						on: [answer({ any: true }, 'support answers')],
					},
					agent: { messages: ['An agent will write to {{vars.email}}'] },
				},
				{ id: 'support', variables: ['email'] },
			);
			const chat = open([main, support]);
			await chat.say('hi');
			expect(await chat.say('support')).toEqual(['Switching', 'Support here, stranger']);
			expect(await chat.state()).toMatchObject({ scenario: 'support', state: 'welcome' });
			expect(await chat.say('x')).toEqual(['support answers']);

			await chat.say('hi', 'cl_grace');
			await chat.say('grace@example.com', 'cl_grace');
			expect(await chat.say('agent', 'cl_grace')).toEqual([
				'An agent will write to grace@example.com',
			]);
			expect(await chat.state('cl_grace')).toMatchObject({ scenario: 'support', state: 'agent' });
		});

		it('ends: by an action or an end state; the next message starts over with fresh variables', async () => {
			const chat = open([
				scenario(
					{
						a: {
							messages: ['Start ({{vars.x|empty}})'],
							on: [
								{ match: { equals: 'set' }, actions: [{ set: { x: 'full' } }] },
								{ match: { equals: 'bye' }, actions: [{ reply: 'Bye' }, { end: true }] },
								{ match: { equals: 'done' }, target: 'finished' },
							],
						},
						finished: { messages: ['All done'], end: true },
					},
					{ variables: ['x'] },
				),
			]);
			await chat.say('hi');
			await chat.say('set');
			expect(await chat.say('bye')).toEqual(['Bye']);
			expect(chat.last?.conversation?.ended).toBe(true);
			expect(await chat.say('hello again')).toEqual(['Start (empty)']);
			expect(chat.last?.restart).toBe('ended');
			expect(await chat.say('done')).toEqual(['All done']);
			expect(await chat.state()).toMatchObject({ state: 'finished', ended: true });
			expect(await chat.say('hi')).toEqual(['Start (empty)']);
		});
	});

	describe('fallback and keywords', () => {
		it('a state fallback replaces the scenario fallback; without one, nothing is sent', async () => {
			const chat = open([
				scenario(
					{
						a: {
							on: [
								{ match: { equals: 'b' }, target: 'b' },
								{ match: { equals: 'c' }, target: 'c' },
							],
						},
						b: { fallback: 'State fallback', on: [{ match: { equals: 'a' }, target: 'a' }] },
						c: {},
					},
					{ fallback: 'Scenario fallback: {{message.text}}?' },
				),
			]);
			await chat.say('hi');
			expect(await chat.say('huh')).toEqual(['Scenario fallback: huh?']);
			await chat.say('b');
			expect(await chat.say('huh')).toEqual(['State fallback']);
			const silent = open([scenario({ a: { messages: ['Hi'] } })]);
			await silent.say('hi');
			expect(await silent.say('anything')).toEqual([]);
		});

		it('keywords work in every state, before its transitions and its capture', async () => {
			const chat = open([
				scenario(
					{
						a: {
							messages: ['Menu'],
							on: [
								{ match: { equals: 'ask' }, target: 'ask' },
								answer({ equals: 'stop' }, 'never'),
							],
						},
						ask: {
							messages: ['Email?'],
							capture: {
								into: 'email',
								check: 'email',
								retry: 'Email please',
								retries: 1,
								giveUp: { target: 'a' },
							},
						},
					},
					{
						keywords: [
							{ match: { equals: 'restart' }, target: 'a' },
							{ match: { equals: 'stop' }, actions: [{ reply: 'Stopped' }, { end: true }] },
						],
					},
				),
			]);
			await chat.say('hi');
			expect(await chat.say('stop')).toEqual(['Stopped']);
			await chat.say('hi');
			await chat.say('ask');
			expect(await chat.say('RESTART')).toEqual(['Menu']);
			await chat.say('ask');
			expect(await chat.say('x')).toEqual(['Email please']);
			// A keyword is not an answer: it does not use up the last try.
			expect(await chat.say('restart')).toEqual(['Menu']);
		});
	});

	describe('silence timers', () => {
		const timed = () =>
			scenario({
				a: {
					messages: ['Question?'],
					on: [{ match: { equals: 'next' }, target: 'b' }],
					fallback: 'Hm',
					after: { minutes: 10, send: 'Still there?' },
				},
				b: {
					messages: ['B'],
					after: { minutes: 5, send: ['Closing', 'Bye'], target: 'c' },
				},
				c: { messages: ['C'], after: { minutes: 1, actions: [{ end: true }] } },
			});

		it('fires after N minutes of silence, once, and not before', async () => {
			const chat = open([timed()]);
			await chat.say('hi');
			expect(await chat.wait(9.9)).toEqual([]);
			expect(await chat.wait(0.1)).toEqual(['Still there?']);
			expect(await chat.wait(60)).toEqual([]);
		});

		it('is cancelled by a client message and counted again from it', async () => {
			const chat = open([timed()]);
			await chat.say('hi');
			await chat.wait(8);
			await chat.say('hmm');
			expect(await chat.wait(8)).toEqual([]);
			expect(await chat.wait(2)).toEqual(['Still there?']);
			await chat.say('next');
			expect((await chat.state())?.timer).toEqual({ dueAt: chat.time + 5 * MINUTE, state: 'b' });
		});

		it('goes to its target, whose own timer then runs; can end the conversation', async () => {
			const chat = open([timed()]);
			await chat.say('hi');
			await chat.say('next');
			expect(await chat.wait(5)).toEqual(['Closing', 'Bye', 'C']);
			expect(await chat.wait(1)).toEqual([]);
			expect(await chat.state()).toMatchObject({ ended: true, timer: null });
		});

		it('fires once when several schedules run at the same time', async () => {
			const chat = open([timed()]);
			await chat.say('hi', 'cl_ada');
			await chat.say('hi', 'cl_grace');
			chat.time += 10 * MINUTE;
			const runs = await Promise.all([
				chat.engine.fireDueTimers(),
				chat.engine.fireDueTimers(),
				chat.newEngine([...chat.engine.scenarios.values()]).fireDueTimers(),
			]);
			expect(runs.flat()).toHaveLength(2);
			expect(chat.api.replies()).toEqual([
				'Question?',
				'Question?',
				'Still there?',
				'Still there?',
			]);
		});

		it('survives a restart: a new engine on the same store fires it', async () => {
			const first = open([timed()]);
			await first.say('hi');
			await first.store.close();
			const second = new Chat([timed()], { openStore: backend.reopen });
			second.time = first.time;
			expect(await second.wait(10)).toEqual(['Still there?']);
			expect(first.api.replies()).toEqual(['Question?']);
		});
	});

	it('uses the clock it is given, never the machine time', async () => {
		const chat = open([example('support')]);
		await chat.say('hi');
		expect((await chat.state())?.timer?.dueAt).toBe(START + 10 * MINUTE);
	});
});
