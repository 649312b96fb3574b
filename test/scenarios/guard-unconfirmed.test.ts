import type { WorkflowPort } from '../../runtime/scenarios';
import type { ScenarioApi } from '../../runtime/scenarios/durability/perform-effect';
import { MemoryStore } from '../../runtime/stores';
import { clientFor } from '../helpers/client';
import { admin, useEmulator } from '../helpers/emulator';
import { CrashingStore } from './crashing-store';
import { Chat, MINUTE, scenario } from './harness';

type Sent = { client_id: string; text: string };

const greetAndTell = () =>
	scenario({
		a: {
			messages: ['Hello'],
			on: [{ match: { any: true }, actions: [{ reply: 'Got {{message.text}}' }] }],
		},
	});

// A reply is sent only after its lease is read back from the store (fence.ts); when that read
// fails, the request never left: the reply is certainly not sent and is tried again, never left
// "unknown" (which is never re-sent, so the client would go unanswered).
describe('a reply whose lease could not be read back before sending', () => {
	const emulator = useEmulator();

	it('is not sent, kept pending with the reason, and sent once the store answers', async () => {
		await admin(emulator(), 'POST', '/reset');
		let store!: CrashingStore;
		let armed = 1;
		const client = clientFor(emulator());
		const api: ScenarioApi = {
			// The fence's read is the first the store sees once the request is handed over.
			sendMessage: async (botId, input, guard) => {
				if (input.text === 'Got one' && armed-- > 0) store.failReads = 1;
				return await client.sendMessage(botId, input, guard);
			},
			updateTags: (clientId, change, guard) => client.updateTags(clientId, change, guard),
		};
		const chat = new Chat([greetAndTell()], {
			api,
			openStore: (now) => (store = new CrashingStore(new MemoryStore(now))),
		});
		try {
			await chat.say('hi', 'cl_ada', 'm1');
			await chat.say('one', 'cl_ada', 'm2');
			const held = chat.last?.actions.map((a) => [a.text, a.status, a.error]);
			expect(held).toEqual([
				['Got one', 'pending', expect.stringMatching(/^Not sent yet: .*connection lost/)],
			]);
			expect(store.failReads).toBe(0);

			chat.time += MINUTE;
			await chat.engine.runDueWork(chat.time);
			const sent = (await admin<Sent[]>(emulator(), 'GET', '/sent-messages?client_id=cl_ada')).body
				.data;
			expect(sent.map((m) => m.text)).toEqual(['Hello', 'Got one']);
			expect((await chat.state())?.outbox.map((e) => [e.text, e.status])).toEqual([
				['Got one', 'done'],
			]);
		} finally {
			await client.close();
		}
	});
});

describe('a workflow call whose lease could not be read back before calling', () => {
	it('is not called, kept pending, and called once the store answers: not taken as a failure', async () => {
		let store!: CrashingStore;
		const calls: string[] = [];
		const lookup = scenario(
			{
				ask: {
					messages: ['Ask me.'],
					on: [{ match: { any: true }, actions: [{ reply: 'One moment' }], target: 'lookup' }],
				},
				lookup: {
					call: {
						workflow: 'faq',
						inputs: { question: '{{message.text}}' },
						store: { answer: 'answer' },
						success: { say: '{{vars.answer}}', target: 'ask' },
						failure: { say: 'The lookup failed.', target: 'ask' },
					},
				},
			},
			{ workflows: { faq: { returns: ['answer'] } } },
		);
		const workflows: WorkflowPort = {
			call: async (_name, inputs) => {
				calls.push(inputs.question ?? '');
				return { answer: 'We open at 9.' };
			},
		};
		const chat = new Chat([lookup], {
			openStore: (now) => (store = new CrashingStore(new MemoryStore(now))),
			engine: { workflows },
		});
		const sent = chat.api.sendMessage.bind(chat.api);
		// The reply before the call is sent; the next read is the call's lease, read back.
		chat.api.sendMessage = async (botId, input) => {
			const answer = await sent(botId, input);
			if (input.text === 'One moment') store.failReads = 1;
			return answer;
		};
		await chat.say('hi');
		await chat.say('hours');
		expect(chat.last?.actions.map((a) => [a.kind, a.status])).toEqual([
			['reply', 'done'],
			['workflow', 'pending'],
		]);
		expect(calls).toEqual([]);
		chat.time += MINUTE;
		await chat.engine.runDueWork(chat.time);
		expect(calls).toEqual(['hours']);
		expect(chat.api.replies()).toEqual(['Ask me.', 'One moment', 'We open at 9.', 'Ask me.']);
	});
});
