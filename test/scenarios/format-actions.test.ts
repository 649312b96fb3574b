import { backends, scenario } from './harness';
import { menu, answer, inMenu, opener } from './format-fixture';

describe.each(backends())('scenario format ($name store)', (backend) => {
	const open = opener(backend);

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
});
