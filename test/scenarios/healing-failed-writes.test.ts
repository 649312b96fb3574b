import type { MessageReceived } from '../../runtime/scenarios';
import { HealingSession } from '../../runtime/scenarios/engine/healing/session';
import {
	encodeInbound,
	inboxClaims,
	inboxNamespace,
	inboxQueue,
} from '../../runtime/scenarios/engine/inbox';
import { conversationScope } from '../../runtime/scenarios/engine/scope';
import { ScenarioEngine } from '../../runtime/scenarios';
import { MemoryStore, type WriteOptions } from '../../runtime/stores';
import { storeError } from '../../runtime/stores/errors';
import { healingFixture, steps } from './healing-fixture';
import { realClock } from '../helpers/client';

/**
 * A memory store whose disk fills up: while `full`, record writes fail, and appends too unless
 * only the steps' writes are refused (`'steps'`: the disk filled between an append and its step).
 */
class FillingStore extends MemoryStore {
	full: boolean | 'steps' = false;
	private refuse(append = false): void {
		if (this.full === true || (this.full === 'steps' && !append))
			throw storeError({ kind: 'SQLite', where: '/test/state.sqlite' }, 'disk full', undefined);
	}
	override async write(
		namespace: string,
		key: string,
		value: string,
		expected: number,
		options?: WriteOptions,
	) {
		this.refuse();
		return await super.write(namespace, key, value, expected, options);
	}
	override async enqueue(
		namespace: string,
		queue: string,
		ids: readonly string[],
		value: string,
		ttl: number,
	) {
		this.refuse(true);
		return await super.enqueue(namespace, queue, ids, value, ttl);
	}
}

// A full disk during a client's messages: what was accepted waits in the inbox, what was refused
// comes back by the service's retry, and nothing is answered out of order or set aside as late.
describe('healing when the store refused writes', () => {
	const { write, transcript, historyReads, ...bench } = healingFixture('default');
	let skew = 0;
	const clock = { now: () => Date.now() + skew, sleep: realClock.sleep };
	const engineOf = (store: FillingStore) =>
		new ScenarioEngine({
			scenarios: [steps],
			store,
			api: bench.client(),
			clock,
			healing: { session: new HealingSession(clock.now()) },
		});
	beforeEach(() => (skew = 0));

	it('applies a stuck inbox only after reading the history, so messages refused around it go first', async () => {
		const store = new FillingStore();
		const engine = engineOf(store);
		await engine.handle(await write('m1'));
		// m2 is accepted, then its step cannot be saved; m3 and m4 are refused (the service retries).
		const m2 = await write('m2');
		store.full = 'steps';
		await expect(engine.handle(m2)).rejects.toThrow(/the disk is full/);
		store.full = true;
		const refused: MessageReceived[] = [await write('m3'), await write('m4')];
		for (const m of refused) await expect(engine.handle(m)).rejects.toThrow(/the disk is full/);
		store.full = false;
		// m5 comes back by a retry well after it was written; the scheduled run finds the inbox stuck.
		const m5 = await write('m5');
		skew = 20_000;
		const inbox = inboxNamespace(conversationScope(steps.id));
		await store.enqueue(
			inbox,
			inboxQueue(m5),
			inboxClaims(m5.message_id),
			encodeInbound(m5),
			60_000,
		);
		const work = await engine.runDueWork();
		expect(work.failures).toEqual([]);
		expect(await transcript()).toEqual([
			's0 got m1',
			's1 got m2',
			's2 got m3',
			's3 got m4',
			's4 got m5',
		]);
		// The refused ones come back by retry: duplicates, not late.
		for (const m of refused) expect((await engine.handle(m)).status).toBe('duplicate');
		expect(await historyReads()).toBe(1);
	});

	it('marks a conversation healed only once what the history showed is stored', async () => {
		const store = new FillingStore();
		await engineOf(store).handle(await write('a1'));
		const lost = await write('a2'); // never delivered: n8n was restarting
		const next = await write('a3');
		// The next process, a few seconds on (the history lists both): a3 is accepted, its healing
		// reads the history, and its append of a2 fails.
		skew = 3000;
		const after = engineOf(store);
		const append = store.enqueue.bind(store);
		store.enqueue = async (namespace, queue, ids, value, ttl) => {
			if (value.includes(lost.message_id)) store.full = true;
			return await append(namespace, queue, ids, value, ttl);
		};
		await expect(after.handle(next)).rejects.toThrow(/the disk is full/);
		store.enqueue = append;
		store.full = false;
		// The service's retry of a3: the history is read again, and a2 goes first.
		skew = 20_000;
		const result = await after.handle(next);
		expect(result.status).toBe('handled');
		expect(result.healing?.healed).toEqual([lost.message_id]);
		expect(await transcript()).toEqual(['s0 got a1', 's1 got a2', 's2 got a3']);
		expect(await historyReads()).toBe(2);
	});
});
