import { compileScenario } from '../../runtime/scenarios';
import { backends, Chat, scenario } from './harness';

const v1 = scenario(
	{
		welcome: { messages: ['v1 welcome'], on: [{ match: { equals: 'go' }, target: 'ask' }] },
		ask: {
			messages: ['v1 ask'],
			on: [
				{
					match: { startsWith: 'name ' },
					actions: [{ set: { name: '{{message.text}}', old: 'x' } }],
				},
				{ match: { equals: 'human' }, actions: [{ handoff: true }] },
			],
			fallback: 'v1 fallback',
			after: { minutes: 5, send: 'v1 reminder' },
		},
	},
	{ id: 'flow', version: 1, variables: ['name', 'old'] },
);

const v2KeepsAsk = scenario(
	{
		welcome: { messages: ['v2 welcome'], on: [{ match: { equals: 'go' }, target: 'ask' }] },
		ask: { messages: ['v2 ask'], fallback: 'v2 fallback, {{vars.name|nobody}}' },
	},
	{ id: 'flow', version: 2, variables: ['name'] },
);

const v2DropsAsk = scenario(
	{ hello: { messages: ['v2 hello'], fallback: 'v2 hello fallback' } },
	{ id: 'flow', version: 2 },
);

// The rule under Live Conversations: Move to This Version (runtime/scenarios/README.md): continue
// if the conversation's state still exists, else start over. Finish on Their Version: pinning.test.ts.
const MOVE = { liveConversations: 'move' } as const;

describe.each(backends())(
	'a scenario changed under a live conversation that moves to it ($name store)',
	(backend) => {
		async function atAsk(): Promise<Chat> {
			const chat = new Chat([v1], { openStore: backend.open });
			await chat.say('hi');
			await chat.say('go');
			await chat.say('name Ada');
			return chat;
		}

		it('continues in the same state when the new version still has it, with the variables it declares', async () => {
			const chat = await atAsk();
			chat.engine = chat.newEngine([compileScenario(v2KeepsAsk)], undefined, MOVE);
			expect(await chat.say('anything')).toEqual(['v2 fallback, name Ada']);
			expect(await chat.state()).toMatchObject({
				version: 2,
				state: 'ask',
				vars: { name: 'name Ada' },
			});
			expect(chat.last?.restart).toBeUndefined();
		});

		it('starts over when the new version no longer has the state', async () => {
			const chat = await atAsk();
			chat.engine = chat.newEngine([compileScenario(v2DropsAsk)], undefined, MOVE);
			expect(await chat.say('anything')).toEqual(['v2 hello']);
			expect(chat.last).toMatchObject({ status: 'started', restart: 'scenario-changed' });
			expect(await chat.state()).toMatchObject({ version: 2, state: 'hello', vars: {} });
			expect(await chat.say('more')).toEqual(['v2 hello fallback']);
		});

		it('starts over in the entry scenario when its scenario is no longer loaded', async () => {
			const chat = await atAsk();
			const other = scenario({ only: { messages: ['other scenario'] } }, { id: 'other' });
			chat.engine = chat.newEngine([compileScenario(other)], undefined, MOVE);
			expect(await chat.say('anything')).toEqual(['other scenario']);
			expect(chat.last?.restart).toBe('scenario-removed');
		});

		it('drops a timer whose state is gone, and keeps a handed-off client silent', async () => {
			const chat = await atAsk();
			chat.engine = chat.newEngine([compileScenario(v2DropsAsk)], undefined, MOVE);
			expect(await chat.wait(5)).toEqual([]);
			expect((await chat.state())?.timer).toBeNull();

			const human = await atAsk();
			await human.say('human');
			human.engine = human.newEngine([compileScenario(v2DropsAsk)], undefined, MOVE);
			expect(await human.say('hello?')).toEqual([]);
			expect(human.last?.status).toBe('silenced');
			await human.engine.release('bot_shop', 'cl_ada');
			expect(await human.say('hello?')).toEqual(['v2 hello']);
		});
	},
);
