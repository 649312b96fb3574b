import {
	compileScenario,
	conversationScope,
	RecordingApi,
	ScenarioEngine,
	type MessageReceived,
} from '../../runtime/scenarios';
import type { EngineOptions } from '../../runtime/scenarios/engine/engine';
import type { StateStore } from '../../runtime/stores';
import { receiveDelivery } from '../../runtime/webhooks/intake';
import { LEGACY_SCENARIO } from '../fixtures/legacy-store/scenario';
import { backends, MINUTE, START } from './harness';

/** A question, a silence timer, a thank-you: enough to see where a conversation stands. */
const SHOP = compileScenario(LEGACY_SCENARIO);
const SHARED = conversationScope('legacy');
const KEY = (client: string) => `bot_shop:${client}`;

describe.each(backends())('conversations of a scenario, not of a workflow ($name)', (backend) => {
	let time: number;
	let api: RecordingApi;
	let store: StateStore;
	const clock = { now: () => time, sleep: async () => undefined };
	const engine = (options: Partial<EngineOptions>, on: StateStore = store) =>
		new ScenarioEngine({ scenarios: [SHOP], store: on, api, clock, scope: SHARED, ...options });
	let n = 0;
	const message = (client: string, text: string, id = `m${++n}`): MessageReceived => ({
		message_id: id,
		client_id: client,
		bot_id: 'bot_shop',
		text,
		timestamp: new Date(time).toISOString(),
	});

	beforeEach(() => {
		time = START;
		api = new RecordingApi();
		store = backend.open(clock.now);
	});

	it("a timer armed by one workflow fires from another workflow's Run Due Work", async () => {
		const bot = engine({ formerScope: 'wfBot' });
		const ticker = engine({ formerScope: 'wfTicker' });
		await bot.handle(message('cl_ada', 'hi'));
		time += 2 * MINUTE;
		const work = await ticker.runDueWork();
		expect(work.timers.map((t) => t.kind)).toEqual(['timer']);
		expect(work.conversations).toBe(1);
		expect(api.replies('cl_ada')).toEqual(['What is your name?', 'Still there?']);
		expect((await bot.conversation('bot_shop', 'cl_ada'))?.state).toBe('nudge');
		expect((await ticker.runDueWork()).conversations).toBe(0);
	});

	it('a message the trigger kept and no execution applied is applied by another workflow', async () => {
		const body = JSON.stringify({
			event: 'message.received',
			webhook_id: 'wh_1',
			timestamp: new Date(time).toISOString(),
			data: message('cl_grace', 'hi'),
		});
		const outcome = await receiveDelivery(
			{ raw: Buffer.from(body), headers: { 'x-service-delivery-id': 'dl_1' } },
			{
				secrets: [],
				events: ['message.received'],
				listening: false,
				passTestEvents: false,
				scope: 'wfBot',
				inboxScope: SHARED,
				store: async () => store,
				recordMessages: true,
				batch: false,
			},
		);
		expect(outcome).toMatchObject({ kind: 'accepted', answerFirst: true });
		time += 20_000;
		const work = await engine({ formerScope: 'wfTicker' }).runDueWork();
		expect(work.messages.map((m) => m.status)).toEqual(['started']);
		expect(api.replies('cl_grace')).toEqual(['What is your name?']);
	});

	it('two workflows handling the same messages at once apply each once and answer once', async () => {
		// Two connections to one store: two processes, each with its own engine.
		const other = backend.reopen(clock.now);
		const one = engine({ formerScope: 'wfOne' });
		const two = engine({ formerScope: 'wfTwo' }, other);
		const clients = ['cl_ada', 'cl_grace', 'cl_alan', 'cl_linus'];
		for (const text of ['hi', 'Ada', 'again']) {
			await Promise.all(
				clients.map(async (client) => {
					const m = message(client, text);
					const results = await Promise.all([one.handle(m), two.handle(m)]);
					expect(results.map((r) => r.status).filter((s) => s === 'duplicate')).toHaveLength(1);
				}),
			);
			time += 1000;
		}
		for (const client of clients)
			expect(api.replies(client)).toEqual(['What is your name?', 'Thanks, Ada', 'Thanks, again']);
	});

	it("a Conversation Scope keeps a copy's conversations apart", async () => {
		const production = engine({ formerScope: 'wfProd' });
		const test = engine({ scope: conversationScope('legacy', 'test'), formerScope: 'wfTest' });
		await production.handle(message('cl_ada', 'hi'));
		expect(await test.conversation('bot_shop', 'cl_ada')).toBeUndefined();
		await test.handle(message('cl_ada', 'hello'));
		expect((await test.conversation('bot_shop', 'cl_ada'))?.state).toBe('ask');
		await production.handle(message('cl_ada', 'Ada'));
		expect((await production.conversation('bot_shop', 'cl_ada'))?.state).toBe('thanks');
		expect((await test.conversation('bot_shop', 'cl_ada'))?.state).toBe('ask');
	});

	describe('conversations kept under a workflow id by older versions', () => {
		/** What an older version left: records, a due timer, a message never applied. */
		async function legacy(): Promise<void> {
			const old = engine({ scope: 'wfBot', formerScope: undefined });
			await old.handle(message('cl_ada', 'hi', 'ada-1'));
			await old.handle(message('cl_grace', 'hi', 'grace-1'));
			await store.enqueue(
				'inbox:wfBot',
				KEY('cl_linus'),
				['m:linus-1'],
				JSON.stringify(message('cl_linus', 'hi', 'linus-1')),
				86_400_000,
			);
			api.calls.length = 0;
		}

		it('continue in their state, the old record carried over and removed; nothing answered twice', async () => {
			await legacy();
			const bot = engine({ formerScope: 'wfBot' });
			expect((await bot.conversation('bot_shop', 'cl_ada'))?.state).toBe('ask');
			expect(await store.read('scenario:wfBot', KEY('cl_ada'))).toBeUndefined();
			expect(await store.read(`scenario:${SHARED}`, KEY('cl_ada'))).toBeDefined();
			// A redelivery of the message answered before the upgrade.
			expect((await bot.handle(message('cl_ada', 'hi', 'ada-1'))).status).toBe('duplicate');
			await bot.handle(message('cl_ada', 'Ada'));
			expect(api.replies('cl_ada')).toEqual(['Thanks, Ada']);
		});

		it("Run Due Work fires the old timers once and applies the old inbox's messages", async () => {
			await legacy();
			time += 2 * MINUTE;
			const bot = engine({ formerScope: 'wfBot' });
			const work = await bot.runDueWork();
			expect(work.carriedOver).toBe(2);
			expect(work.conversations).toBe(3);
			expect(work.messages.map((m) => m.messageId)).toEqual(['linus-1']);
			expect(api.replies('cl_linus')).toEqual(['What is your name?']);
			expect(api.replies('cl_ada')).toEqual(['Still there?']);
			expect(api.replies('cl_grace')).toEqual(['Still there?']);
			const again = await bot.runDueWork();
			expect(again.conversations + again.carriedOver).toBe(0);
			expect(api.replies()).toHaveLength(3);
		});

		it('a message still in the old inbox is applied before a newer one of the client', async () => {
			await legacy();
			time += 1000;
			const bot = engine({ formerScope: 'wfBot' });
			const result = await bot.handle(message('cl_linus', 'Linus'));
			expect(result.alsoApplied?.map((r) => r.messageId)).toEqual(['linus-1']);
			expect(api.replies('cl_linus')).toEqual(['What is your name?', 'Thanks, Linus']);
		});

		it('a crash between writing the carried record and removing the old one loses and repeats nothing', async () => {
			await legacy();
			const crashing = failing(store, 'remove', (ns) => ns === 'scenario:wfBot');
			await expect(
				engine({ formerScope: 'wfBot' }, crashing).handle(message('cl_ada', 'Ada', 'ada-2')),
			).rejects.toThrow('process crashed');
			// Both copies are there; every reader takes the new one.
			expect(await store.read('scenario:wfBot', KEY('cl_ada'))).toBeDefined();
			const bot = engine({ formerScope: 'wfBot' });
			await bot.handle(message('cl_ada', 'Ada', 'ada-2'));
			time += 2 * MINUTE;
			const work = await bot.runDueWork();
			expect(await store.read('scenario:wfBot', KEY('cl_ada'))).toBeUndefined();
			expect(work.timers.map((t) => t.conversation.clientId)).toEqual(['cl_grace']);
			expect(api.replies('cl_ada')).toEqual(['Thanks, Ada']);
		});

		it('a crash while moving the old inbox applies each message once, in order', async () => {
			await legacy();
			const crashing = failing(store, 'dequeue', (ns) => ns === 'inbox:wfBot');
			time += 1000;
			const second = message('cl_linus', 'Linus', 'linus-2');
			await expect(engine({ formerScope: 'wfBot' }, crashing).handle(second)).rejects.toThrow(
				'process crashed',
			);
			const bot = engine({ formerScope: 'wfBot' });
			await bot.handle(second);
			time += 20_000;
			await bot.runDueWork();
			expect(api.replies('cl_linus')).toEqual(['What is your name?', 'Thanks, Linus']);
			expect(await store.queued('inbox:wfBot', KEY('cl_linus'), 10)).toEqual([]);
			expect(await store.queued(`inbox:${SHARED}`, KEY('cl_linus'), 10)).toEqual([]);
		});
	});
});

/** The store of a process that dies on the first `method` call matching `when`, before it lands. */
function failing(
	store: StateStore,
	method: 'remove' | 'dequeue',
	when: (namespace: string) => boolean,
): StateStore {
	let crashed = false;
	return new Proxy(store, {
		get(target, property, receiver) {
			const value = Reflect.get(target, property, receiver) as unknown;
			if (typeof value !== 'function') return value;
			return (...args: unknown[]) => {
				if (property === method && !crashed && when(args[0] as string)) {
					crashed = true;
					return Promise.reject(new Error('process crashed'));
				}
				return (value as (...a: unknown[]) => unknown).apply(target, args);
			};
		},
	});
}
