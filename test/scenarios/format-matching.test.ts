import { backends, scenario } from './harness';
import { menu, answer, inMenu, opener } from './format-fixture';

describe.each(backends())('scenario format ($name store)', (backend) => {
	const open = opener(backend);

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
});
