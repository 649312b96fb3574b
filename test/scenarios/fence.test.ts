import { closeBudgets } from '../../runtime/api/budget';
import { compileScenario, ScenarioEngine, type HandleResult } from '../../runtime/scenarios';
import type { StateStore } from '../../runtime/stores';
import { clientFor } from '../helpers/client';
import { admin, useEmulator } from '../helpers/emulator';
import { ManualClock, settle } from '../helpers/manual-clock';
import { backends, scenario, START } from './harness';

const MINUTE = 60_000;
const says = () =>
	compileScenario(
		scenario({
			a: {
				messages: ['Hello'],
				on: [{ match: { any: true }, actions: [{ reply: 'Said {{message.text}}' }] }],
			},
		}),
	);

describe.each(backends())('a worker that lost its lease sends nothing ($name store)', (backend) => {
	const emulator = useEmulator();
	let clock: ManualClock;
	let store: StateStore;
	let n = 0;

	beforeEach(async () => {
		await admin(emulator(), 'POST', '/reset');
		clock = new ManualClock(START);
		store = backend.open(() => clock.now());
	});

	/** A worker whose key allows `limit` requests per `windowMs`, on a budget of its own (a process). */
	async function worker(limit: number, windowMs: number, on: StateStore) {
		await closeBudgets();
		const api = clientFor(emulator(), {
			clock,
			rateLimit: { limit, windowMs },
			priority: 'interactive',
		});
		const engine = new ScenarioEngine({
			scenarios: [says()],
			store: on,
			api,
			clock,
			wait: (ms, signal) => clock.sleep(ms, signal),
			monotonic: clock.monotonic,
		});
		return { api, engine };
	}

	const write = (engine: ScenarioEngine, text: string) =>
		engine.handle({
			message_id: `m${++n}`,
			client_id: 'cl_ada',
			bot_id: 'bot_shop',
			text,
		});

	const sent = async () =>
		(
			await admin<Array<{ text: string }>>(emulator(), 'GET', '/sent-messages?client_id=cl_ada')
		).body.data.map((m) => m.text);

	/** The first worker's reply to "two" waits for its budget; the greeting spent the window. */
	async function replyWaiting(windowMs: number) {
		const first = await worker(1, windowMs, store);
		await write(first.engine, 'hi');
		let done: HandleResult | undefined;
		const handled = write(first.engine, 'two').then((r) => (done = r));
		await clock.advance(1000);
		expect(done).toBeUndefined();
		return { first, handled, done: () => done };
	}

	/** Another worker's Run Due Work: the lease ran out, it reads the history and sends. */
	async function takeOver() {
		const other = await worker(
			100,
			MINUTE,
			backend.reopen(() => clock.now()),
		);
		const work = await other.engine.runDueWork();
		expect(work.timers.flatMap((t) => t.actions.map((a) => [a.text, a.status]))).toEqual([
			['Said two', 'done'],
		]);
		expect(await sent()).toEqual(['Hello', 'Said two']);
		return other;
	}

	it('a paused worker, woken past its lease, leaves the reply to the worker that took it over', async () => {
		// The slot frees 10 s on; the lease keeper would renew 20 s on.
		const { first, handled } = await replyWaiting(10_000);
		clock.freeze(2 * MINUTE);
		const other = await takeOver();

		await clock.advance(0);
		const result = await handled;
		// The woken worker's own clock told it the lease was gone: it wrote nothing more.
		expect(
			result.actions.map((a) => [a.text, a.status, /lost its lease/.test(a.error ?? '')]),
		).toEqual([['Said two', 'sending', true]]);
		expect(result.problems).toEqual([]);
		expect((await other.engine.conversation('bot_shop', 'cl_ada'))?.outbox.at(-1)?.status).toBe(
			'done',
		);
		await clock.advance(MINUTE);
		expect(await sent()).toEqual(['Hello', 'Said two']);
		await Promise.all([first.api.close(), other.api.close()]);
	});

	it('a lease found lost by its keeper takes the reply out of the budget queue at once', async () => {
		// The slot frees only 10 minutes on: the reply would wait that long.
		const { first, handled, done } = await replyWaiting(10 * MINUTE);
		// The store's clock runs past the lease while this process's own clock says it holds it.
		clock.stepWall(2 * MINUTE);
		const other = await takeOver();

		// The keeper's next renewal (20 s on) finds the lease another worker's.
		await clock.advance(20_000);
		for (let i = 0; i < 20 && !done(); i++) await settle();
		expect(done()).toBeDefined();
		const result = await handled;
		expect(result.actions.map((a) => [a.text, /lost its lease/.test(a.error ?? '')])).toEqual([
			['Said two', true],
		]);
		expect(first.api.requestCount).toBe(1);
		expect(await sent()).toEqual(['Hello', 'Said two']);
		await Promise.all([first.api.close(), other.api.close()]);
	});
});
