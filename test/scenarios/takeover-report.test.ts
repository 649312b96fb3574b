import type { StateStore } from '../../runtime/stores/types';
import { Chat, echoTwice, holdingApi, MINUTE, stoppedWorker, until } from './harness';

/** The chat's store with its next conversation write held until `open()`. */
function heldWrite(store: StateStore) {
	let open = () => {};
	const opened = new Promise<void>((resolve) => (open = resolve));
	let armed = true;
	let waiting = 0;
	const held = new Proxy(store, {
		get(target, name, receiver) {
			const value = Reflect.get(target, name, receiver) as unknown;
			if (name !== 'write' || typeof value !== 'function') return value;
			return async (...args: Parameters<StateStore['write']>) => {
				if (armed && args[0].startsWith('scenario:')) {
					armed = false;
					waiting++;
					await opened;
				}
				return await (value as StateStore['write']).apply(target, args);
			};
		},
	});
	return { store: held, open, waiting: () => waiting };
}

// Two scheduled runs find the same reply whose worker stopped; one takes it over, the other loses
// the compare-and-set and finds it leased again. The loser's run reports nothing of it: a
// workflow counting resumed replies on "Handled" counts each once.
test('a scheduled run that loses a takeover to another run reports no resumed reply', async () => {
	const leaseMs = 1000;
	const chat = new Chat([echoTwice()]);
	await chat.say('hi');
	// A worker that stops with both replies decided and the first leased.
	const scenarios = await stoppedWorker(chat, leaseMs);
	chat.time += 10 * MINUTE;

	// Run B reads the expired lease first; its takeover write waits while run A takes it over.
	const gate = heldWrite(chat.store);
	const runB = chat.newEngine(scenarios, chat.api, { leaseMs }, gate.store).runDueWork();
	await until(() => gate.waiting() === 1);
	const sendsA = holdingApi(chat);
	sendsA.hold();
	const runA = chat.newEngine(scenarios, sendsA.api, { leaseMs }).runDueWork();
	await until(() => sendsA.gate.waiting === 1);
	gate.open();
	const b = await runB;
	sendsA.release();
	const a = await runA;

	const resumed = (work: typeof a) =>
		work.timers
			.filter((t) => t.kind === 'resumed')
			.flatMap((t) => t.actions.map((x) => `${x.text}: ${x.status}`));
	expect(resumed(b)).toEqual([]);
	// The reply in doubt is not sent again (this API shows no history to check); the next one is.
	expect(resumed(a)).toEqual(['You said one: unknown', 'Noted: done']);
	expect(chat.api.replies()).toEqual(['Hello', 'Noted']);
});
