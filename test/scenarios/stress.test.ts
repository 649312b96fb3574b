import fc from 'fast-check';

import { compileScenario, type MessageReceived } from '../../runtime/scenarios';
import type { ConversationView } from '../../runtime/scenarios/durability/record';
import type { RecordedCall } from '../../runtime/scenarios/offline/recording-api';
import { backends, Chat, scenario } from './harness';

/** Every reply depends on what came before: order, state and variables all show in the transcript. */
const stateful = compileScenario(
	scenario(
		{
			menu: {
				messages: ['Menu ({{vars.log|empty}})'],
				on: [
					{ match: { equals: 'ask' }, target: 'ask' },
					{ match: { equals: 'tag' }, actions: [{ addTags: ['t'] }, { reply: 'tagged' }] },
					{ match: { equals: 'untag' }, actions: [{ removeTags: ['t'] }, { reply: 'untagged' }] },
					{
						match: { equals: 'check' },
						when: [{ tag: 't' }],
						actions: [{ reply: 'tag on, log {{vars.log}}' }],
					},
					{ match: { equals: 'check' }, actions: [{ reply: 'tag off, log {{vars.log}}' }] },
					{ match: { equals: 'bye' }, actions: [{ reply: 'bye' }, { end: true }] },
					{
						match: { any: true },
						actions: [
							{ set: { log: '{{vars.log}}.{{message.text}}' } },
							{ reply: 'log {{vars.log}}' },
						],
					},
				],
			},
			ask: {
				messages: ['Number?'],
				capture: {
					into: 'n',
					check: 'number',
					retry: 'A number, please',
					retries: 1,
					giveUp: { say: 'Giving up', target: 'menu' },
					actions: [{ set: { log: '{{vars.log}}#{{vars.n}}' } }, { reply: 'got {{vars.n}}' }],
					target: 'menu',
				},
			},
		},
		{ id: 'stress', variables: ['log'] },
	),
);

const CLIENTS = 50;
const PER_CLIENT = 20; // 1,000 messages
const WORDS = ['ask', 'tag', 'untag', 'check', 'bye', 'x', 'y', '7', '42', 'foo'];

/** A small seeded generator for the interleaving, so a failing seed replays exactly. */
function mulberry32(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** Each client's messages in its own order, shuffled together, with 10% redelivered copies. */
function arrivals(scripts: string[][], seed: number): MessageReceived[] {
	const random = mulberry32(seed);
	const slots = scripts.flatMap((script, c) => script.map(() => c));
	for (let i = slots.length - 1; i > 0; i--) {
		const j = Math.floor(random() * (i + 1));
		[slots[i], slots[j]] = [slots[j], slots[i]];
	}
	const next = scripts.map(() => 0);
	const order: MessageReceived[] = slots.map((c) => {
		const i = next[c]++;
		return message(c, i, scripts[c][i]);
	});
	const copies = Math.round(order.length * 0.1);
	for (let k = 0; k < copies; k++) {
		const from = Math.floor(random() * order.length);
		const to = from + 1 + Math.floor(random() * (order.length - from));
		order.splice(to, 0, { ...order[from] });
	}
	return order;
}

const message = (client: number, i: number, text: string): MessageReceived => ({
	message_id: `c${client}-m${i}`,
	client_id: `cl_${client}`,
	bot_id: 'bot_shop',
	text,
});

function transcripts(calls: readonly RecordedCall[]): Map<string, string[]> {
	const byClient = new Map<string, string[]>();
	for (const call of calls) {
		const line =
			call.kind === 'reply' ? call.text : `[tags +${call.add.join(',')} -${call.remove.join(',')}]`;
		byClient.set(call.clientId, [...(byClient.get(call.clientId) ?? []), line]);
	}
	return byClient;
}

/** A conversation without what differs between two runs by design: the service's message ids. */
const comparable = (view: ConversationView | undefined) =>
	view && { ...view, outbox: view.outbox.map((entry) => ({ ...entry, sentId: undefined })) };

describe.each(backends())('scenario engine under load ($name store)', (backend) => {
	it('1,000 messages from 50 clients, interleaved and 10% redelivered, handled concurrently: the same transcripts as one by one', async () => {
		const script = fc.array(fc.constantFrom(...WORDS), {
			minLength: PER_CLIENT,
			maxLength: PER_CLIENT,
		});
		await fc.assert(
			fc.asyncProperty(
				fc.array(script, { minLength: CLIENTS, maxLength: CLIENTS }),
				fc.integer(),
				async (scripts, seed) => {
					const sequential = new Chat([stateful], { openStore: backend.open });
					for (let c = 0; c < CLIENTS; c++) {
						for (let i = 0; i < PER_CLIENT; i++)
							await sequential.engine.handle(message(c, i, scripts[c][i]));
					}

					const concurrent = new Chat([stateful], { openStore: backend.open });
					const events = arrivals(scripts, seed);
					expect(events).toHaveLength(1_100);
					const results = await Promise.all(events.map((e) => concurrent.engine.handle(e)));

					expect(results.filter((r) => r.status === 'duplicate')).toHaveLength(100);
					expect(results.flatMap((r) => r.problems)).toEqual([]);
					expect(transcripts(concurrent.api.calls)).toEqual(transcripts(sequential.api.calls));
					// No reply sent twice: every call is one outbox entry of one message.
					const performed = results.flatMap((r) =>
						r.actions.map((a) => `${r.conversation?.clientId}#${a.id}`),
					);
					expect(new Set(performed).size).toBe(performed.length);
					expect(performed).toHaveLength(concurrent.api.calls.length);
					// No state lost: every conversation ends where the sequential one did.
					for (let c = 0; c < CLIENTS; c++) {
						const [a, b] = await Promise.all([
							concurrent.state(`cl_${c}`),
							sequential.state(`cl_${c}`),
						]);
						expect(comparable(a)).toEqual(comparable(b));
					}
					await Promise.all([sequential.store.close(), concurrent.store.close()]);
				},
			),
			{ seed: 20260105, numRuns: 2, endOnFailure: true },
		);
	});
});
