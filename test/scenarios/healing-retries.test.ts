import { RETRIED_AFTER_MS } from '../../runtime/scenarios/engine/healing/need';
import { healingFixture } from './healing-fixture';
import { PROFILES } from '../emulator/profiles';
import { realClock } from '../helpers/client';

// A process that runs on while some deliveries fail (n8n busy, "Database is not ready!", a
// timeout): a message that comes by a retry has the client's history read, once, so that what the
// client wrote before it and never reached the process goes first (A40).
describe.each(PROFILES)('healing a message that came by a retry (%s profile)', (profile) => {
	const { engineOf, write, historyReads, listed, transcript } = healingFixture(profile);
	// The process's clock, moved on past the service's first attempt when a retry is to come.
	let ahead = 0;
	const clock = { ...realClock, now: () => Date.now() + ahead };
	beforeEach(() => {
		ahead = 0;
	});

	it('applies what failed before a retried message, in order, with one read', async () => {
		const engine = engineOf(clock);
		await engine.handle(await write('a1'));
		const failed = await write('a2'); // every attempt failed so far
		const retried = await write('a3'); // its first attempts failed too; a retry gets through
		const inTime = await write('a4');
		await listed();
		ahead = RETRIED_AFTER_MS + 1000;
		const result = await engine.handle(retried);
		expect(result.alsoApplied?.map((r) => [r.messageId, r.healed])).toEqual([
			[failed.message_id, true],
		]);
		expect(result.healing?.healed).toEqual([failed.message_id, inTime.message_id]);
		expect(await transcript()).toEqual(['s0 got a1', 's1 got a2', 's2 got a3']);
		// What came after it waits in the inbox for its own delivery; a repeated one is a duplicate.
		expect((await engine.handle(inTime)).status).toBe('handled');
		expect((await engine.handle(failed)).status).toBe('duplicate');
		expect(await transcript()).toHaveLength(4);
		const reads = await historyReads();
		if (profile === 'default') expect(reads).toBe(1);
		else expect(reads).toBeLessThanOrEqual(4);
	});

	it('reads nothing for messages delivered in time', async () => {
		const engine = engineOf(clock);
		for (const text of ['b1', 'b2', 'b3']) await engine.handle(await write(text));
		expect(await historyReads()).toBe(0);
		expect(await transcript()).toEqual(['s0 got b1', 's1 got b2', 's2 got b3']);
	});
});
