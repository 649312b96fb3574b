/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling: real timers for the renewal's real waits, never loaded by n8n */
import { compileScenario } from '../../runtime/scenarios';
import { backends, Chat, echoTwice, holdingApi, MINUTE, until } from './harness';

const echo = echoTwice;

/** Real time, cancellable: what n8n's sleep with a signal gives the node. */
const wait = async (ms: number, signal: AbortSignal) =>
	await new Promise<void>((resolve) => {
		const timer = setTimeout(resolve, ms);
		signal.addEventListener('abort', () => {
			clearTimeout(timer);
			resolve();
		});
	});

describe.each(backends())('a reply waiting longer than its lease ($name store)', (backend) => {
	it('keeps its lease while it waits: another process neither marks it unknown nor sends it', async () => {
		// Real milliseconds for the renewal timer (the store's clock is the chat's); long enough that
		// a busy machine never stalls a renewal past it, when the fence would rightly give it up.
		const leaseMs = 1000;
		const chat = new Chat([echo()], { openStore: backend.open });
		const waiting = holdingApi(chat);
		chat.engine = chat.newEngine([compileScenario(echo())], waiting.api, { leaseMs, wait });
		await chat.say('hi', 'cl_ada', 'm1');

		waiting.hold();
		const handled = chat.engine.handle({
			message_id: 'm2',
			client_id: 'cl_ada',
			bot_id: 'bot_shop',
			text: 'one',
		});
		await until(() => waiting.gate.waiting === 1);
		// Ten minutes pass on the store's clock while the reply waits; the renewal runs meanwhile.
		chat.time += 10 * MINUTE;
		await new Promise((r) => setTimeout(r, leaseMs * 2));

		const other = backend.reopen(chat.clock.now);
		const second = chat.newEngine([compileScenario(echo())], chat.api, { leaseMs }, other);
		await second.runDueWork(chat.time + leaseMs / 2);
		expect(chat.api.replies()).toEqual(['Hello']);
		expect((await second.conversation('bot_shop', 'cl_ada'))?.outbox?.map((e) => e.status)).toEqual(
			expect.not.arrayContaining(['unknown']),
		);

		waiting.release();
		const result = await handled;
		expect(result.actions.map((a) => [a.text, a.status])).toEqual([
			['You said one', 'done'],
			['Noted', 'done'],
		]);
		expect(chat.api.replies()).toEqual(['Hello', 'You said one', 'Noted']);
		if (other !== chat.store) await other.close();
	});
});
