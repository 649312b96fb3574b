import { HealingSession } from '../../runtime/scenarios/engine/healing/session';
import { ScenarioEngine } from '../../runtime/scenarios';
import { CrashingStore } from './crashing-store';
import { healingFixture, steps } from './healing-fixture';
import { PROFILES } from '../emulator/profiles';
import { realClock } from '../helpers/client';
import { admin } from '../helpers/emulator';

// Healing a conversation that has no record yet after a restart: its first message accepted by a
// process that died before applying it, or its first messages never passed on while n8n started.
describe.each(PROFILES)('healing a conversation with no record yet (%s profile)', (profile) => {
	const { emulator, engineOf, write, historyReads, listed, transcript, ...bench } =
		healingFixture(profile);

	it('applies the first message the stopped process accepted, then those never passed on, in order', async () => {
		const crashing = new CrashingStore(bench.store());
		const before = new ScenarioEngine({
			scenarios: [steps],
			store: crashing,
			api: bench.client(),
			clock: realClock,
			healing: { session: new HealingSession(Date.now()) },
		});
		// Accepted into the inbox, then the process dies on the step's write (the first write
		// records the scenario's version).
		crashing.crashOnWrite = 2;
		await expect(before.handle(await write('a1'))).rejects.toThrow('process crashed');
		const lost = await write('a2'); // refused while n8n was down
		const next = await write('a3');
		await listed();
		const after = engineOf();
		const result = await after.handle(next);
		expect(result.healing?.healed).toEqual([lost.message_id]);
		expect(await transcript()).toEqual(['s0 got a1', 's1 got a2', 's2 got a3']);
		expect((await after.handle(lost)).status).toBe('duplicate');
	});

	it("after a restart, heals a new client's first message answered by n8n while it started", async () => {
		const before = engineOf();
		await before.handle(await write('o1', 'cl_ada'));
		const lost = await write('g1');
		const next = await write('g2');
		await listed();
		const after = engineOf();
		const result = await after.handle(next);
		expect(result.alsoApplied?.map((r) => [r.messageId, r.healed])).toEqual([
			[lost.message_id, true],
		]);
		expect(await transcript()).toEqual(['s0 got g1', 's1 got g2']);
		// A client new to the bot once the process has served a while: no history read.
		await admin(emulator(), 'POST', '/clock/advance', { ms: 40_000 });
		await after.handle(await write('k1', 'cl_alan'));
		expect(await historyReads('cl_alan')).toBe(0);
		expect(await transcript('cl_alan')).toEqual(['s0 got k1']);
	});

	it('reads no history for new clients of a process that follows none', async () => {
		const first = engineOf();
		await first.handle(await write('g1'));
		await first.handle(await write('o1', 'cl_ada'));
		expect([await historyReads('cl_grace'), await historyReads('cl_ada')]).toEqual([0, 0]);
	});
});
