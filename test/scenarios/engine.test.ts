import { BotInactiveError, SendOutcomeUnknownError, ServerError } from '../../runtime/api';
import { compileScenario } from '../../runtime/scenarios';
import type { ScenarioApi } from '../../runtime/scenarios/durability/perform-effect';
import { CrashingStore } from './crashing-store';
import { backends, Chat, MINUTE, scenario } from './harness';

/** Two replies per message, so that the order and the outcome of each can be seen. */
const echo = () =>
	scenario(
		{
			a: {
				messages: ['Hello'],
				on: [
					{
						match: { any: true },
						actions: [
							{ reply: 'You said {{message.text}}' },
							{ reply: 'Noted' },
							{ set: { log: '{{vars.log}}{{message.text}};' } },
						],
					},
				],
			},
		},
		{ variables: ['log'] },
	);

/** The recording API with one failure planned for the n-th send. */
function failingApi(chat: Chat, failOnSend: number, error: () => Error): ScenarioApi {
	let sends = 0;
	return {
		sendMessage: async (botId, input) => {
			if (++sends === failOnSend) throw error();
			return chat.api.sendMessage(botId, input);
		},
		updateTags: (clientId, change) => chat.api.updateTags(clientId, change),
	};
}

const deferred = () => {
	let resolve = () => {};
	const promise = new Promise<void>((r) => (resolve = r));
	return { promise, resolve };
};

describe.each(backends())('scenario engine ($name store)', (backend) => {
	const open = () => new Chat([echo()], { openStore: backend.open });

	it('drops a message id already handled, without a second reply', async () => {
		const chat = open();
		await chat.say('hi', 'cl_ada', 'm1');
		expect(await chat.say('one', 'cl_ada', 'm2')).toEqual(['You said one', 'Noted']);
		expect(await chat.say('one', 'cl_ada', 'm2')).toEqual([]);
		expect(chat.last?.status).toBe('duplicate');
		expect(chat.api.replies()).toEqual(['Hello', 'You said one', 'Noted']);
	});

	it('applies a message again after a crash before its step was saved: each reply sent once', async () => {
		const chat = open();
		const crashing = new CrashingStore(chat.store);
		chat.engine = chat.newEngine([compileScenario(echo())], chat.api, {}, crashing);
		await chat.say('hi', 'cl_ada', 'm1');
		crashing.writes = 0;
		crashing.crashOnWrite = 1; // the step, its outbox, its first reply leased
		await expect(chat.say('one', 'cl_ada', 'm2')).rejects.toThrow('process crashed');
		expect(chat.api.replies()).toEqual(['Hello']);

		// The redelivery reaches a restarted engine: the message is still in the inbox.
		chat.engine = chat.newEngine([compileScenario(echo())]);
		expect(await chat.say('one', 'cl_ada', 'm2')).toEqual(['You said one', 'Noted']);
		expect(chat.last?.status).toBe('handled');
		expect(await chat.say('one', 'cl_ada', 'm2')).toEqual([]);
		expect(chat.last?.status).toBe('duplicate');
		expect(chat.api.replies()).toEqual(['Hello', 'You said one', 'Noted']);
		expect((await chat.state())?.vars.log).toBe('one;');
	});

	// A reply leased when the process died is never sent again: reported unknown once the lease
	// runs out. Leased in the step's own write, a first reply is in doubt from that write on.
	it.each([
		{
			when: 'its step was saved (its first reply leased with it), before the send',
			crash: { crashAfterWrite: 1 },
			sent: ['Hello'],
		},
		{
			when: 'the reply went out, before its outcome was recorded',
			crash: { crashOnWrite: 2 },
			sent: ['Hello', 'You said one'],
		},
	])('never sends again a reply leased when the process died: $when', async ({ crash, sent }) => {
		const chat = open();
		const crashing = new CrashingStore(chat.store);
		const options = { leaseMs: 5 * MINUTE };
		chat.engine = chat.newEngine([compileScenario(echo())], chat.api, options, crashing);
		await chat.say('hi', 'cl_ada', 'm1');
		crashing.writes = 0;
		Object.assign(crashing, crash);
		await expect(chat.say('one', 'cl_ada', 'm2')).rejects.toThrow('process crashed');
		expect(chat.api.replies()).toEqual(sent);

		chat.engine = chat.newEngine([compileScenario(echo())], chat.api, options);
		// Within the lease the first sender may still be at work: nothing happens.
		expect(await chat.say('one', 'cl_ada', 'm2')).toEqual([]);
		chat.time += 5 * MINUTE;
		await chat.say('one', 'cl_ada', 'm2');
		expect(chat.last?.actions.map((a) => [a.text, a.status])).toEqual([
			['You said one', 'unknown'],
			['Noted', 'done'],
		]);
		expect(chat.last?.problems).toHaveLength(1);
		expect(chat.api.replies()).toEqual([...sent, 'Noted']);
		expect((await chat.state())?.vars.log).toBe('one;');
	});

	it('records a SendOutcomeUnknownError as unknown, surfaces it, goes on, and never re-sends it', async () => {
		const chat = open();
		await chat.say('hi', 'cl_ada', 'm1');
		const api = failingApi(
			chat,
			1,
			() =>
				new SendOutcomeUnknownError(
					new ServerError('Internal server error', 500),
					'bot_shop',
					'cl_ada',
				),
		);
		chat.engine = chat.newEngine([compileScenario(echo())], api);
		expect(await chat.say('one', 'cl_ada', 'm2')).toEqual(['You said one', 'Noted']);
		expect(chat.last?.actions.map((a) => a.status)).toEqual(['unknown', 'done']);
		expect(chat.last?.problems).toEqual([
			expect.objectContaining({
				text: 'You said one',
				status: 'unknown',
				error: expect.stringContaining('may or may not have been sent'),
			}),
		]);
		await chat.say('one', 'cl_ada', 'm2');
		expect(chat.last).toMatchObject({ status: 'duplicate', actions: [] });
		expect(chat.api.replies()).toEqual(['Hello', 'Noted']);
	});

	it('keeps a reply the service certainly refused, in order, for the retry; fails it after 3 attempts', async () => {
		const chat = open();
		await chat.say('hi', 'cl_ada', 'm1');
		let down = true;
		const api: ScenarioApi = {
			sendMessage: async (botId, input) => {
				if (down) throw new BotInactiveError('Bot is inactive', 403);
				return chat.api.sendMessage(botId, input);
			},
			updateTags: async () => undefined,
		};
		chat.engine = chat.newEngine([compileScenario(echo())], api);
		expect(await chat.say('one', 'cl_ada', 'm2')).toEqual(['You said one']);
		expect(chat.last?.actions.map((a) => [a.status, a.error])).toEqual([
			['pending', 'Bot is inactive'],
		]);
		down = false;
		// The retried message resumes the outbox where it stopped.
		expect(await chat.say('one', 'cl_ada', 'm2')).toEqual(['You said one', 'Noted']);
		expect(chat.api.replies()).toEqual(['Hello', 'You said one', 'Noted']);

		down = true;
		await chat.say('two', 'cl_ada', 'm3');
		await chat.say('two', 'cl_ada', 'm3');
		await chat.say('two', 'cl_ada', 'm3');
		expect(chat.last?.problems.map((a) => [a.text, a.status])).toEqual([
			['You said two', 'failed'],
		]);
		down = false;
		// Next message: the failed reply is dropped, the one behind it and the new ones go out.
		expect(await chat.say('three', 'cl_ada', 'm4')).toEqual(['Noted', 'You said three', 'Noted']);
	});

	it("handles one client's messages in arrival order and other clients alongside", async () => {
		const chat = open();
		await chat.say('hi', 'cl_ada', 'a0');
		await chat.say('hi', 'cl_grace', 'g0');
		const gate = deferred();
		const api: ScenarioApi = {
			sendMessage: async (botId, input) => {
				if (input.client_id === 'cl_ada') await gate.promise;
				return chat.api.sendMessage(botId, input);
			},
			updateTags: async () => undefined,
		};
		chat.engine = chat.newEngine([compileScenario(echo())], api);
		const ada = [chat.say('1', 'cl_ada', 'a1'), chat.say('2', 'cl_ada', 'a2')];
		await chat.say('x', 'cl_grace', 'g1');
		expect(chat.api.replies('cl_grace')).toEqual(['Hello', 'You said x', 'Noted']);
		expect(chat.api.replies('cl_ada')).toEqual(['Hello']);
		gate.resolve();
		await Promise.all(ada);
		expect(chat.api.replies('cl_ada')).toEqual([
			'Hello',
			'You said 1',
			'Noted',
			'You said 2',
			'Noted',
		]);
	});

	it('releases the claim when the step could not be saved, so the retry is handled', async () => {
		const chat = open();
		const crashing = new CrashingStore(chat.store);
		chat.engine = chat.newEngine([compileScenario(echo())], chat.api, {}, crashing);
		// The first write records the scenario's version; the second is the step's.
		crashing.crashOnWrite = 2;
		await expect(chat.say('hi', 'cl_ada', 'm1')).rejects.toThrow('process crashed');
		expect(await chat.say('hi', 'cl_ada', 'm1')).toEqual(['Hello']);
		expect(chat.last?.status).toBe('started');
	});

	it('reads the client profile once per conversation, and only when the scenario uses it', async () => {
		const chat = open();
		const getClient = jest.fn((id: string) => chat.api.getClient(id));
		const api: ScenarioApi = {
			sendMessage: (b, i) => chat.api.sendMessage(b, i),
			updateTags: (c, t) => chat.api.updateTags(c, t),
			getClient,
		};
		chat.engine = chat.newEngine([compileScenario(echo())], api);
		await chat.say('hi');
		await chat.say('more');
		expect(getClient).not.toHaveBeenCalled();

		const greeting = scenario({ a: { messages: ['Hi {{client.first_name}}'], fallback: 'Yes?' } });
		chat.engine = chat.newEngine([compileScenario(greeting)], api);
		expect(await chat.say('hi', 'cl_grace')).toEqual(['Hi Grace']);
		expect(await chat.say('again', 'cl_grace')).toEqual(['Yes?']);
		expect(getClient.mock.calls).toEqual([['cl_grace']]);
	});

	describe('two processes on one store', () => {
		const twoEngines = () => {
			const chat = open();
			const other = backend.reopen(chat.clock.now);
			const second = chat.newEngine([compileScenario(echo())], chat.api, {}, other);
			return { chat, second, other };
		};

		it('a redelivery handled by both at once is replied to once', async () => {
			const { chat, second, other } = twoEngines();
			await chat.say('hi', 'cl_ada', 'm1');
			const event = { message_id: 'm2', client_id: 'cl_ada', bot_id: 'bot_shop', text: 'one' };
			const results = await Promise.all([
				chat.engine.handle(event),
				second.handle(event),
				chat.engine.handle(event),
			]);
			expect(results.map((r) => r.status).sort()).toEqual(['duplicate', 'duplicate', 'handled']);
			expect(chat.api.replies()).toEqual(['Hello', 'You said one', 'Noted']);
			if (other !== chat.store) await other.close();
		});

		it('messages of one client split between them lose no state', async () => {
			const { chat, second, other } = twoEngines();
			await chat.say('hi', 'cl_ada', 'm1');
			const texts = ['a', 'b', 'c', 'd', 'e', 'f'];
			await Promise.all(
				texts.map((text, i) =>
					(i % 2 ? second : chat.engine).handle({
						message_id: `x${i}`,
						client_id: 'cl_ada',
						bot_id: 'bot_shop',
						text,
					}),
				),
			);
			const log = (await chat.state())?.vars.log ?? '';
			expect(log.split(';').filter(Boolean).sort()).toEqual(texts);
			const said = chat.api.replies().filter((r) => r.startsWith('You said'));
			expect(said.sort()).toEqual(texts.map((t) => `You said ${t}`));
			expect(chat.api.replies().filter((r) => r === 'Noted')).toHaveLength(6);
			if (other !== chat.store) await other.close();
		});
	});
});
