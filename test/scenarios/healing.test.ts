/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling: short real waits between a client's messages */
import { ScenarioEngine, type MessageReceived } from '../../runtime/scenarios';
import type { ScenarioApi } from '../../runtime/scenarios/durability/perform-effect';
import { HealingSession } from '../../runtime/scenarios/engine/healing/session';
import { MemoryStore, type StateStore } from '../../runtime/stores';
import { CrashingStore } from './crashing-store';
import { healingFixture, steps } from './healing-fixture';
import { PROFILES } from '../emulator/profiles';
import { clientFor, realClock } from '../helpers/client';
import { admin, useEmulator } from '../helpers/emulator';

// Healing from the client's history (A24, A39), with the emulator over HTTP under both of its
// profiles: a process that starts again heals each conversation active shortly before, once,
// and applies what the client wrote and n8n never passed on, in the client's order.
describe.each(PROFILES)('healing from the history over HTTP (%s profile)', (profile) => {
	const { emulator, engineOf, write, historyReads, listed, transcript, ...bench } =
		healingFixture(profile);
	let store: StateStore;
	let client: ReturnType<typeof bench.client>;
	beforeEach(() => {
		store = bench.store();
		client = bench.client();
	});

	it('applies a message whose delivery never came, before the next, once; its late delivery is a duplicate', async () => {
		const before = engineOf();
		await before.handle(await write('a1'));
		await before.handle(await write('a2'));
		const lost = await write('a3'); // answered "starting up" by n8n, or still to be retried
		const next = await write('a4');
		const after = engineOf();
		const result = await after.handle(next);
		expect(result.alsoApplied?.map((r) => [r.messageId, r.status, r.healed])).toEqual([
			[lost.message_id, 'handled', true],
		]);
		expect(result.healing).toEqual({
			conversation: 'bot_shop:cl_grace',
			healed: [lost.message_id],
			unplaced: 0,
		});
		expect(await transcript()).toEqual(['s0 got a1', 's1 got a2', 's2 got a3', 's3 got a4']);
		expect((await after.handle(lost)).status).toBe('duplicate');
		expect((await after.handle(await write('a5'))).healing).toBeUndefined();
		expect(await transcript()).toHaveLength(5);
		expect((await after.conversation('bot_shop', 'cl_grace'))?.healing?.healed).toEqual([
			lost.message_id,
		]);
		// One read; the variant's is read again until it lists the message in hand.
		const reads = await historyReads();
		if (profile === 'default') expect(reads).toBe(1);
		else expect(reads).toBeLessThanOrEqual(4);
	});

	it('heals, on the scheduled run, a conversation no delivery reaches again', async () => {
		const before = engineOf();
		await before.handle(await write('a1'));
		const lost = await write('a2');
		let skew = 0;
		const clock = { now: () => Date.now() + skew, sleep: realClock.sleep };
		const after = engineOf(clock);
		// The first seconds after a start are left to the next run.
		expect((await after.runDueWork()).healing).toEqual([]);
		skew = 6000;
		await listed();
		const work = await after.runDueWork();
		expect(work.healing).toEqual([
			{ conversation: 'bot_shop:cl_grace', healed: [lost.message_id], unplaced: 0 },
		]);
		expect(work.messages.map((r) => [r.messageId, r.healed])).toEqual([[lost.message_id, true]]);
		expect(await transcript()).toEqual(['s0 got a1', 's1 got a2']);
		// Once per conversation and process.
		expect((await after.runDueWork()).healing).toEqual([]);
		expect(await historyReads()).toBe(1);
	});

	it('heals again on the first delivery what it healed before the process served webhooks', async () => {
		const before = engineOf();
		await before.handle(await write('a1'));
		let skew = 0;
		const clock = { now: () => Date.now() + skew, sleep: realClock.sleep };
		const after = engineOf(clock);
		// Scheduled work runs while n8n still answers deliveries 404: nothing to heal yet.
		skew = 6000;
		expect((await after.runDueWork()).healing).toEqual([
			{ conversation: 'bot_shop:cl_grace', healed: [], unplaced: 0 },
		]);
		const lost = await write('a2'); // its delivery answered 404: webhooks not served yet
		const next = await write('a3');
		await listed();
		const result = await after.handle(next);
		expect(result.healing?.healed).toEqual([lost.message_id]);
		expect(await transcript()).toEqual(['s0 got a1', 's1 got a2', 's2 got a3']);
		// Final from then on.
		expect((await after.handle(await write('a4'))).healing).toBeUndefined();
		expect(await historyReads()).toBe(2);
	});

	it('reads the history once for executions of one conversation running at once', async () => {
		const before = engineOf();
		await before.handle(await write('a1'));
		const lost = [await write('a2'), await write('a3')];
		const late = [await write('a4'), await write('a5')];
		await listed();
		// Two executions of the new process, each with its own engine, sharing its session.
		const session = new HealingSession(Date.now());
		const engine = () =>
			new ScenarioEngine({
				scenarios: [steps],
				store,
				api: client,
				clock: realClock,
				healing: { session },
			});
		const results = await Promise.all(late.map((m) => engine().handle(m)));
		// Each message once, whichever execution applied it.
		for (const r of results) expect(['handled', 'duplicate']).toContain(r.status);
		expect(await transcript()).toEqual([
			's0 got a1',
			's1 got a2',
			's2 got a3',
			's3 got a4',
			's4 got a5',
		]);
		expect(lost.map((m) => m.text)).toEqual(['a2', 'a3']);
		expect(session.healedAt.has('bot_shop:cl_grace')).toBe(true);
		expect(await historyReads()).toBe(1);
	});

	it('heals again when a worker died holding a lease (a takeover), then settles its reply', async () => {
		// Worker B has run since before; worker A dies right after saving a step (its reply leased).
		const workerB = new ScenarioEngine({
			scenarios: [steps],
			store,
			api: client,
			clock: realClock,
			leaseMs: 100,
			healing: { session: new HealingSession(Date.now() - 1000) },
		});
		const crashing = new CrashingStore(store);
		const workerA = new ScenarioEngine({
			scenarios: [steps],
			store: crashing,
			api: client,
			clock: realClock,
			leaseMs: 100,
			healing: { session: new HealingSession(Date.now()) },
		});
		await workerA.handle(await write('a1'));
		crashing.writes = 0;
		crashing.crashAfterWrite = 1;
		await expect(workerA.handle(await write('a2'))).rejects.toThrow('process crashed');
		const lost = await write('a3');
		await listed();
		await new Promise((resolve) => setTimeout(resolve, 150));
		const work = await workerB.runDueWork();
		expect(work.healing).toEqual([
			{ conversation: 'bot_shop:cl_grace', healed: [lost.message_id], unplaced: 0 },
		]);
		expect(await transcript()).toEqual(['s0 got a1', 's1 got a2', 's2 got a3']);
		// Once per lease that ran out.
		expect((await workerB.runDueWork()).healing).toEqual([]);
	});

	it('says what the history could not give, in the result and in the conversation; Late Messages decides the rest', async () => {
		const before = engineOf();
		await before.handle(await write('a1'));
		const lost = await write('a2');
		const next = await write('a3');
		await admin(emulator(), 'POST', '/faults', {
			path: '/v1/clients/cl_grace/messages',
			status: 503,
			count: 20,
		});
		const after = engineOf();
		const result = await after.handle(next);
		expect(result.healing?.error).toMatch(/^the client's history could not be read: /);
		expect(result.alsoApplied).toBeUndefined();
		expect((await after.conversation('bot_shop', 'cl_grace'))?.healing?.error).toBe(
			result.healing?.error,
		);
		const retried = await after.handle(lost);
		expect([retried.status, retried.late]).toEqual(['late', true]);
		expect(await transcript()).toEqual(['s0 got a1', 's1 got a3']);
	});
});

describe('healing from a history that shows no client messages', () => {
	const emulator = useEmulator({ rateLimit: 100_000 });
	let client: ReturnType<typeof clientFor>;
	beforeAll(() => {
		client = clientFor(emulator(), { rateLimit: { limit: 100_000, windowMs: 60_000 } });
	});
	afterAll(async () => client.close());

	it('is off, said once, and reads nothing more', async () => {
		let reads = 0;
		const outboundOnly: ScenarioApi = {
			sendMessage: (bot, input) => client.sendMessage(bot, input),
			updateTags: (id, change) => client.updateTags(id, change),
			async *iterateClientMessages(id, options) {
				reads++;
				for await (const m of client.iterateClientMessages(id, options))
					if (m.direction !== 'inbound') yield m;
			},
		};
		const store = new MemoryStore();
		const engine = (session: HealingSession) =>
			new ScenarioEngine({
				scenarios: [steps],
				store,
				api: outboundOnly,
				clock: realClock,
				healing: { session },
			});
		const event = (clientId: string, n: number): MessageReceived => ({
			message_id: `${clientId}-${n}`,
			client_id: clientId,
			bot_id: 'bot_shop',
			text: `m${n}`,
			timestamp: new Date(Date.now() + n).toISOString(),
		});
		const before = engine(new HealingSession(Date.now()));
		for (const c of ['cl_ada', 'cl_grace']) await before.handle(event(c, 1));
		// A minute and more later: a history that lists no client message is not merely behind.
		const later = { now: () => Date.now() + 61_000, sleep: realClock.sleep };
		const after = new ScenarioEngine({
			scenarios: [steps],
			store,
			api: outboundOnly,
			clock: later,
			healing: { session: new HealingSession(later.now()) },
		});
		const first = await after.handle(event('cl_ada', 3));
		expect(first.notice).toMatch(/^healing from the history is off: /);
		expect(first.healing?.off).toBe(first.notice);
		// Read again while it might only be late to list the message in hand (A39), then given up.
		expect(reads).toBe(4);
		const second = await after.handle(event('cl_grace', 3));
		expect(second.notice).toBeUndefined();
		expect(second.healing).toBeUndefined();
		expect(reads).toBe(4);
	});
});
