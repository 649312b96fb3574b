import { compileScenario } from '../../runtime/scenarios';
import { definitionReads } from '../../runtime/scenarios/engine/versions/pinned';
import { backends, Chat, scenario } from './harness';

// Live Conversations: Finish on Their Version (the default). A conversation finishes on the
// version it started on; its next one starts on the live version.
const v1 = scenario(
	{
		welcome: { messages: ['v1 welcome'], on: [{ match: { equals: 'go' }, target: 'ask' }] },
		ask: {
			messages: ['v1 ask'],
			on: [
				{ match: { startsWith: 'name ' }, actions: [{ set: { name: '{{message.text}}' } }] },
				{ match: { equals: 'done' }, target: 'bye' },
			],
			fallback: 'v1 fallback, {{vars.name|nobody}}',
			after: { minutes: 5, send: 'v1 reminder' },
		},
		bye: { messages: ['v1 bye'], end: true },
	},
	{ id: 'flow', version: 1, variables: ['name'] },
);

// `ask` renamed `question`: under the rule of old its conversations would start over.
const v2 = scenario(
	{
		welcome: { messages: ['v2 welcome'], on: [{ match: { equals: 'go' }, target: 'question' }] },
		question: { messages: ['v2 question'], fallback: 'v2 fallback' },
	},
	{ id: 'flow', version: 2 },
);

describe.each(backends())('conversations finish on their version ($name store)', (backend) => {
	async function atAsk(chat: Chat, client = 'cl_ada'): Promise<void> {
		await chat.say('hi', client);
		await chat.say('go', client);
	}

	it('answers, captures and fires timers on the version it started on, says so, and starts the next on the live one', async () => {
		const chat = new Chat([v1], { openStore: backend.open });
		await atAsk(chat);
		chat.engine = chat.newEngine([compileScenario(v2)]);
		expect(await chat.say('name Ada')).toEqual([]);
		expect(chat.last).toMatchObject({
			status: 'handled',
			olderVersion: { version: 1, liveVersion: 2 },
		});
		expect(chat.last?.restart).toBeUndefined();
		expect(await chat.say('what?')).toEqual(['v1 fallback, name Ada']);
		expect(await chat.state()).toMatchObject({
			version: 1,
			state: 'ask',
			vars: { name: 'name Ada' },
		});
		expect(await chat.wait(5)).toEqual(['v1 reminder']);
		// A new client starts on the live version, beside it.
		expect(await chat.say('hi', 'cl_grace')).toEqual(['v2 welcome']);
		expect(chat.last?.olderVersion).toBeUndefined();
		// The pinned conversation ends on v1; the client's next one is on v2.
		expect(await chat.say('done')).toEqual(['v1 bye']);
		expect(await chat.say('hello again')).toEqual(['v2 welcome']);
		expect(chat.last).toMatchObject({ status: 'started', restart: 'ended' });
		expect(await chat.state()).toMatchObject({ version: 2, state: 'welcome' });
	});

	it('follows the live version under Move to This Version (the rule of old)', async () => {
		const chat = new Chat([v1], { openStore: backend.open });
		await atAsk(chat);
		chat.engine = chat.newEngine([compileScenario(v2)], undefined, { liveConversations: 'move' });
		expect(await chat.say('name Ada')).toEqual(['v2 welcome']);
		expect(chat.last).toMatchObject({ status: 'started', restart: 'scenario-changed' });
	});

	it('records each version the engines were given, with its hash and when it was seen', async () => {
		const chat = new Chat([v1], { openStore: backend.open });
		await atAsk(chat);
		chat.time += 60_000;
		chat.engine = chat.newEngine([compileScenario(v2)]);
		await chat.say('hi', 'cl_grace');
		const versions = await chat.engine.versions();
		expect(versions.map((v) => [v.version, v.live, v.conversations])).toEqual([
			[2, true, 1],
			[1, false, 1],
		]);
		expect(versions[1]).toMatchObject({ id: 'flow', firstSeen: chat.time - 60_000 });
		expect(versions[0].hash).toMatch(/^[0-9a-f]{16}$/);
		expect(versions[0].hash).not.toBe(versions[1].hash);
	});

	it('writes a version record once per process and version, not per message or engine', async () => {
		const chat = new Chat([v1], { openStore: backend.open });
		const writes: string[] = [];
		const counted = new Proxy(chat.store, {
			get(target, name, receiver) {
				const value = Reflect.get(target, name, receiver) as unknown;
				if (name !== 'write' || typeof value !== 'function') return value;
				return (namespace: string, ...rest: unknown[]) => {
					writes.push(namespace);
					return (value as (...a: unknown[]) => unknown).call(target, namespace, ...rest);
				};
			},
		});
		for (let i = 0; i < 5; i++) {
			// A new engine per message, as the node makes one per execution.
			chat.engine = chat.newEngine([compileScenario(v1)], undefined, {}, counted);
			await chat.say(i === 0 ? 'hi' : `name ${i}`, `cl_${i % 2}`);
		}
		expect(writes.filter((ns) => ns.startsWith('versions:'))).toEqual(['versions:default']);
	});

	it("notes a pinned conversation's use without holding up its messages, and tries a failed note again", async () => {
		const chat = new Chat([v1], { openStore: backend.open });
		await atAsk(chat);
		// The v1 record's writes (the notes of its use): the first fails, the second waits for `go`.
		const notes: Array<Promise<unknown>> = [];
		let go = () => undefined as void;
		const held = new Promise<void>((resolve) => (go = resolve));
		const store = new Proxy(chat.store, {
			get(target, name, receiver) {
				const value = Reflect.get(target, name, receiver) as unknown;
				if (name !== 'write' || typeof value !== 'function') return value;
				return (namespace: string, key: string, ...rest: unknown[]) => {
					const write = () =>
						(value as (...a: unknown[]) => Promise<unknown>).call(target, namespace, key, ...rest);
					if (namespace !== 'versions:default' || key !== 'flow@1') return write();
					const note =
						notes.length === 0 ? Promise.reject(new Error('store down')) : held.then(write);
					notes.push(note);
					return note;
				};
			},
		});
		chat.engine = chat.newEngine([compileScenario(v2)], undefined, {}, store);
		expect(await chat.say('name Ada')).toEqual([]);
		expect(await chat.say('what?')).toEqual(['v1 fallback, name Ada']);
		expect(notes).toHaveLength(2);
		expect((await chat.engine.versions())[1].lastUsed).toBeUndefined();
		go();
		await notes[1];
		expect((await chat.engine.versions())[1]).toMatchObject({ version: 1, lastUsed: chat.time });
	});

	if (backend.name === 'sqlite')
		it('reads an older definition from the store at most once per process and version', async () => {
			const first = new Chat([v1], { openStore: backend.open });
			for (const client of ['cl_ada', 'cl_grace']) await atAsk(first, client);
			// Another process: a connection of its own to the same file, never given v1.
			const other = new Chat([v2], { store: backend.reopen(first.clock.now) });
			const reads = definitionReads.count;
			for (let i = 0; i < 3; i++) {
				for (const client of ['cl_ada', 'cl_grace']) {
					other.engine = other.newEngine([compileScenario(v2)]);
					await other.say(`name ${i}`, client, `later-${i}-${client}`);
					expect(other.last?.olderVersion).toEqual({ version: 1, liveVersion: 2 });
				}
			}
			expect(await other.wait(5)).toEqual(['v1 reminder', 'v1 reminder']);
			expect(definitionReads.count - reads).toBe(1);
		});
});
