import type { ScenarioApi } from '../../runtime/scenarios/durability/perform-effect';
import {
	encodeInbound,
	inboxClaims,
	inboxNamespace,
	inboxQueue,
} from '../../runtime/scenarios/engine/inbox';
import { backends, Chat, echoTwice, stoppedWorker } from './harness';

// A scheduled run first applies the messages whose execution stopped, and each of their replies
// may wait long for the request budget; only then does it look for what is due. A lease that ran
// out meanwhile is due by then: the same run takes it over, not one a schedule period later.
describe.each(backends())('a scheduled run slowed by stalled work ($name store)', (backend) => {
	it('takes over a lease that ran out while the run applied a stalled message', async () => {
		const leaseMs = 60_000;
		const chat = new Chat([echoTwice()], { openStore: backend.open });
		await chat.say('hi');
		await chat.say('hi', 'cl_grace', 'g1');
		const scenarios = await stoppedWorker(chat, leaseMs);
		const leasedAt = chat.time;

		// cl_grace's message was accepted and its execution never ran.
		const stranded = {
			message_id: 'g2',
			client_id: 'cl_grace',
			bot_id: 'bot_shop',
			text: 'late',
			timestamp: new Date(leasedAt).toISOString(),
		};
		await chat.store.enqueue(
			inboxNamespace('default'),
			inboxQueue(stranded),
			inboxClaims(stranded.message_id, 'dlv_g2'),
			encodeInbound(stranded),
			60_000,
		);
		// Each send waits 40 s for the budget: cl_grace's two replies take the run past the lease end.
		const slowApi: ScenarioApi = {
			sendMessage: async (botId, input) => {
				chat.time += 40_000;
				return await chat.api.sendMessage(botId, input);
			},
			updateTags: (clientId, change) => chat.api.updateTags(clientId, change),
		};
		const other = chat.newEngine(
			scenarios,
			slowApi,
			{ leaseMs, stalledAfterMs: 0 },
			backend.reopen(chat.clock.now),
		);
		chat.time = leasedAt + 20_000;
		const work = await other.runDueWork();

		expect(work.messages.map((m) => [m.messageId, m.status])).toEqual([['g2', 'handled']]);
		expect(work.timers.map((t) => [t.conversation.clientId, t.kind])).toEqual([
			['cl_ada', 'resumed'],
		]);
		// It looked for what was due once the stalled work was done, past the lease's end.
		expect(work.dueBy).toBeGreaterThan(leasedAt + leaseMs);
		expect(work.dueBy).toBe(leasedAt + 20_000 + 2 * 40_000);
	});
});
