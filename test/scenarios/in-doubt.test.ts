import { ServerError } from '../../runtime/api';
import { compileScenario } from '../../runtime/scenarios';
import type { ScenarioApi } from '../../runtime/scenarios/durability/perform-effect';
import type { HistoryItem } from '../../runtime/scenarios/durability/sent-check';
import { CrashingStore } from './crashing-store';
import { Chat, echoTwice, MINUTE } from './harness';

const echo = echoTwice;

type Shape = 'dated' | 'undated';

/** The chat's recording API with a message history: every reply sent, stamped with the chat's time. */
function withHistory(chat: Chat, shape: Shape = 'dated', failReads = 0) {
	const history: Array<HistoryItem & { client: string }> = [];
	let failures = failReads;
	const api: ScenarioApi & {
		iterateClientMessages(clientId: string): AsyncIterable<HistoryItem>;
	} = {
		sendMessage: async (botId, input) => {
			const sent = await chat.api.sendMessage(botId, input);
			history.push({
				client: input.client_id,
				message_id: sent.message_id,
				bot_id: botId,
				direction: 'outbound',
				text: input.text,
				...(shape === 'dated' ? { timestamp: new Date(chat.time).toISOString() } : {}),
			});
			return sent;
		},
		updateTags: (clientId, change) => chat.api.updateTags(clientId, change),
		async *iterateClientMessages(clientId) {
			if (failures-- > 0) throw new ServerError('Internal server error', 500);
			// The client's own messages are in the history too, with the same text as a reply at times.
			yield {
				direction: 'inbound',
				text: 'You said one',
				timestamp: new Date(chat.time).toISOString(),
			};
			for (const { client, ...item } of history) if (client === clientId) yield item;
		},
	};
	return api;
}

/** A chat whose process dies on the second message, as `crash` says; then a new engine. */
async function crashOnSecond(
	chat: Chat,
	api: ScenarioApi,
	crash: { crashAfterWrite?: number; crashOnWrite?: number },
) {
	const crashing = new CrashingStore(chat.store);
	const options = { leaseMs: 5 * MINUTE };
	chat.engine = chat.newEngine([compileScenario(echo())], api, options, crashing);
	await chat.say('hi', 'cl_ada', 'm1');
	crashing.writes = 0;
	Object.assign(crashing, crash);
	await expect(chat.say('one', 'cl_ada', 'm2')).rejects.toThrow('process crashed');
	chat.engine = chat.newEngine([compileScenario(echo())], api, options);
	chat.time += 5 * MINUTE;
}

const statuses = (chat: Chat) => chat.last?.actions.map((a) => [a.text, a.status]);

// A reply leased when its process died: the client's history says whether it went out (A38). Found, it
// is done and never sent again; certainly absent, it is sent now; unsure, it is reported unknown.
describe('a reply left in doubt by a dead process', () => {
	it('is sent once the history shows it never went out (died after saving the step)', async () => {
		const chat = new Chat([echo()]);
		await crashOnSecond(chat, withHistory(chat), { crashAfterWrite: 1 });
		expect(chat.api.replies()).toEqual(['Hello']);
		await chat.say('one', 'cl_ada', 'm2');
		expect(statuses(chat)).toEqual([
			['You said one', 'done'],
			['Noted', 'done'],
		]);
		expect(chat.last?.problems).toEqual([]);
		expect(chat.api.replies()).toEqual(['Hello', 'You said one', 'Noted']);
	});

	it('is done, not sent again, when the history shows it went out (died before recording it)', async () => {
		const chat = new Chat([echo()]);
		await crashOnSecond(chat, withHistory(chat), { crashOnWrite: 2 });
		expect(chat.api.replies()).toEqual(['Hello', 'You said one']);
		await chat.say('one', 'cl_ada', 'm2');
		expect(statuses(chat)).toEqual([
			['You said one', 'done'],
			['Noted', 'done'],
		]);
		expect(chat.last?.actions[0].sentId).toBe('sent_2');
		expect(chat.api.replies()).toEqual(['Hello', 'You said one', 'Noted']);
	});

	it('is sent again when the same text in the history is older than the reply', async () => {
		const chat = new Chat([echo()]);
		const api = withHistory(chat);
		chat.engine = chat.newEngine([compileScenario(echo())], api);
		await chat.say('hi', 'cl_ada', 'm0');
		await chat.say('one', 'cl_ada', 'm00');
		chat.time += 10 * MINUTE;
		await crashOnSecond(chat, api, { crashAfterWrite: 1 });
		await chat.say('one', 'cl_ada', 'm2');
		expect(statuses(chat)).toEqual([
			['You said one', 'done'],
			['Noted', 'done'],
		]);
		expect(chat.api.replies().filter((t) => t === 'You said one')).toHaveLength(2);
	});

	it('stays unknown, never sent again, when the history shows the text without a time', async () => {
		const chat = new Chat([echo()]);
		await crashOnSecond(chat, withHistory(chat, 'undated'), { crashOnWrite: 2 });
		await chat.say('one', 'cl_ada', 'm2');
		expect(statuses(chat)).toEqual([
			['You said one', 'unknown'],
			['Noted', 'done'],
		]);
		expect(chat.last?.problems).toEqual([
			expect.objectContaining({ error: expect.stringContaining('without a time') }),
		]);
		expect(chat.api.replies()).toEqual(['Hello', 'You said one', 'Noted']);
	});

	it('waits, in order, while the history cannot be read, and decides once it can', async () => {
		const chat = new Chat([echo()]);
		// The first read heals (the restart's reconciliation), the second checks the reply: both fail.
		await crashOnSecond(chat, withHistory(chat, 'dated', 2), { crashAfterWrite: 1 });
		await chat.say('one', 'cl_ada', 'm2');
		expect(chat.last?.healing?.error).toMatch(/history could not be read: Internal server error/);
		expect(statuses(chat)).toEqual([['You said one', 'pending']]);
		expect(chat.api.replies()).toEqual(['Hello']);
		chat.time += MINUTE;
		await chat.engine.runDueWork(chat.time);
		expect((await chat.state())?.outbox.map((a) => [a.text, a.status])).toEqual([
			['You said one', 'done'],
			['Noted', 'done'],
		]);
		expect(chat.api.replies()).toEqual(['Hello', 'You said one', 'Noted']);
	});

	it('stays unknown when the API cannot read the history', async () => {
		const chat = new Chat([echo()]);
		await crashOnSecond(chat, chat.api, { crashAfterWrite: 1 });
		await chat.say('one', 'cl_ada', 'm2');
		expect(statuses(chat)).toEqual([
			['You said one', 'unknown'],
			['Noted', 'done'],
		]);
		expect(chat.api.replies()).toEqual(['Hello', 'Noted']);
	});
});
