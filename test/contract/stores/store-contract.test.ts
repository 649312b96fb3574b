import { backends, cleanUp, useFreshStore } from './backends';

afterAll(cleanUp);

// One contract, every backend: what the trigger and the scenario engine rely on (claims, records,
// due marks, expiry; the inboxes in inbox-contract.test.ts).
describe.each(backends)('state store contract: $name', (backend) => {
	const t = useFreshStore(backend);

	it('claims an id once', async () => {
		expect(await t.store.claim('d', 'a', 1000)).toBe(true);
		expect(await t.store.claim('d', 'a', 1000)).toBe(false);
		expect(await t.store.claim('d', 'b', 1000)).toBe(true);
		expect(await t.store.claim('other', 'a', 1000)).toBe(true);
	});

	it('gives exactly one of 50 concurrent claimants the id', async () => {
		const results = await Promise.all(
			Array.from({ length: 50 }, () => t.store.claim('d', 'same', 1000)),
		);
		expect(results.filter(Boolean)).toHaveLength(1);
	});

	it('lets an expired claim be made again, and a released one', async () => {
		await t.store.claim('d', 'a', 1000);
		t.clock += 999;
		expect(await t.store.claim('d', 'a', 1000)).toBe(false);
		t.clock += 1;
		expect(await t.store.claim('d', 'a', 1000)).toBe(true);
		await t.store.release('d', 'a');
		expect(await t.store.claim('d', 'a', 1000)).toBe(true);
	});

	it('writes with compare-and-set', async () => {
		expect(await t.store.read('c', 'k')).toBeUndefined();
		expect(await t.store.write('c', 'k', 'one', 0)).toBe(1);
		expect(await t.store.write('c', 'k', 'again', 0)).toBeNull();
		expect(await t.store.write('c', 'k', 'two', 1)).toBe(2);
		expect(await t.store.write('c', 'k', 'stale', 1)).toBeNull();
		expect(await t.store.read('c', 'k')).toEqual({ value: 'two', version: 2 });
		expect(await t.store.read('other', 'k')).toBeUndefined();
	});

	it('lets only one of concurrent writers with the same expected version win', async () => {
		await t.store.write('c', 'k', 'base', 0);
		const results = await Promise.all(
			Array.from({ length: 20 }, (_, i) => t.store.write('c', 'k', `w${i}`, 1)),
		);
		expect(results.filter((r) => r === 2)).toHaveLength(1);
		const winner = results.findIndex((r) => r === 2);
		expect(await t.store.read('c', 'k')).toEqual({ value: `w${winner}`, version: 2 });
	});

	it('removes only at the expected version, with its due mark', async () => {
		await t.store.write('c', 'k', 'v', 0);
		await t.store.setDue('c', 'k', 5);
		expect(await t.store.remove('c', 'k', 2)).toBe(false);
		expect(await t.store.remove('c', 'k', 1)).toBe(true);
		expect(await t.store.read('c', 'k')).toBeUndefined();
		expect(await t.store.due('c', 10, 10)).toEqual([]);
	});

	it('lists due keys earliest first, up to a limit, and forgets cleared ones', async () => {
		await t.store.setDue('t', 'late', 300);
		await t.store.setDue('t', 'early', 100);
		await t.store.setDue('t', 'mid', 200);
		await t.store.setDue('t', 'future', 900);
		await t.store.setDue('other', 'x', 1);
		expect(await t.store.due('t', 300, 10)).toEqual(['early', 'mid', 'late']);
		expect(await t.store.due('t', 300, 2)).toEqual(['early', 'mid']);
		await t.store.setDue('t', 'early', null);
		await t.store.setDue('t', 'mid', 1000);
		expect(await t.store.due('t', 300, 10)).toEqual(['late']);
	});

	it('writes a record and its due mark in one step, and clears the mark the same way', async () => {
		expect(await t.store.write('c', 'k', 'v', 0, { dueAt: 50 })).toBe(1);
		expect(await t.store.due('c', 60, 10)).toEqual(['k']);
		expect(await t.store.write('c', 'k', 'stale', 0, { dueAt: null })).toBeNull();
		expect(await t.store.due('c', 60, 10)).toEqual(['k']);
		expect(await t.store.write('c', 'k', 'w', 1)).toBe(2);
		expect(await t.store.due('c', 60, 10)).toEqual(['k']);
		expect(await t.store.write('c', 'k', 'x', 2, { dueAt: null })).toBe(3);
		expect(await t.store.due('c', 60, 10)).toEqual([]);
	});

	it('forgets a record once it expires; a stale writer cannot bring it back', async () => {
		await t.store.write('c', 'k', 'v', 0, { expiresAt: t.clock + 1000 });
		t.clock += 999;
		expect(await t.store.read('c', 'k')).toEqual({ value: 'v', version: 1 });
		t.clock += 1;
		expect(await t.store.read('c', 'k')).toBeUndefined();
		expect(await t.store.write('c', 'k', 'stale', 1)).toBeNull();
		const version = await t.store.write('c', 'k', 'new', 0);
		expect(version).not.toBeNull();
		expect(await t.store.read('c', 'k')).toEqual({ value: 'new', version });
		// Without an expiry it stays.
		t.clock += 10 ** 9;
		expect((await t.store.read('c', 'k'))?.value).toBe('new');
	});

	if (backend.reopen) {
		const reopen = backend.reopen;
		it('keeps claims and records after a restart', async () => {
			await t.store.claim('d', 'kept', 86_400_000);
			await t.store.write('c', 'k', 'kept', 0);
			await t.store.setDue('t', 'k', 5);
			await t.store.noteActive('a', 'k', t.clock, 3_600_000);
			await t.store.close();
			t.store = reopen(t.now);
			expect(await t.store.claim('d', 'kept', 86_400_000)).toBe(false);
			expect(await t.store.read('c', 'k')).toEqual({ value: 'kept', version: 1 });
			expect(await t.store.due('t', 10, 10)).toEqual(['k']);
			expect(await t.store.active('a', t.clock, 10)).toEqual(['k']);
		});

		it('is atomic across two connections to one store', async () => {
			const second = reopen(t.now);
			const ids = Array.from({ length: 200 }, (_, i) => `id${i}`);
			const results = await Promise.all(
				ids.flatMap((id) => [t.store.claim('d', id, 1000), second.claim('d', id, 1000)]),
			);
			expect(results.filter(Boolean)).toHaveLength(200);
			await t.store.write('c', 'k', 'base', 0);
			const writes = await Promise.all([
				t.store.write('c', 'k', 'a', 1),
				second.write('c', 'k', 'b', 1),
			]);
			expect(writes.filter((w) => w === 2)).toHaveLength(1);
			await second.close();
		});
	}
});
