import { backends, cleanUp, useFreshStore } from './backends';

afterAll(cleanUp);

// The loss marker, on every store that can lose acknowledged writes without losing the process:
// a store put back from an older backup (or with nothing) says so, and from when; one that kept
// everything says nothing. The engine rebuilds from the history what such a store no longer knows.
describe.each(backends.filter((b) => b.backup))('loss marker contract: $name', (backend) => {
	const t = useFreshStore(backend);

	it('finds no loss in a store that kept every write, across a reconnect or a reopen', async () => {
		await t.store.write('c', 'k1', 'one', 0);
		await t.store.write('c', 'k1', 'two', 1);
		expect(await t.store.lostWrites()).toBeUndefined();
		// Put back as it was after its last write (a clean restart): nothing lost.
		const restore = await backend.backup!(t.store);
		t.clock += 1000;
		t.store = await restore(t.now);
		expect(await t.store.read('c', 'k1')).toEqual({ value: 'two', version: 2 });
		expect(await t.store.lostWrites()).toBeUndefined();
	});

	it('finds the loss of a store put back from an older backup, from the backup on', async () => {
		await t.store.write('c', 'k1', 'one', 0);
		t.clock += 1000;
		const backupAt = t.clock;
		const restore = await backend.backup!(t.store);
		t.clock += 60_000;
		await t.store.write('c', 'k2', 'lost', 0);
		t.clock += 1000;
		t.store = await restore(t.now);
		// Asked first: a command answered by the store as it came back, before the loss was found,
		// may be refused (Redis: redis-outage.test.ts).
		const lost = await t.store.lostWrites();
		expect(await t.store.read('c', 'k2')).toBeUndefined();
		expect(lost).toMatchObject({ foundAt: t.clock });
		expect(lost!.since).toBeLessThanOrEqual(backupAt + 1000);
		expect(lost!.since).toBeGreaterThanOrEqual(1_000_000);
		expect(lost!.detail).toMatch(/as it was at/);
		// Found once: the store goes on from there, and a later write is kept.
		expect(await t.store.write('c', 'k3', 'kept', 0)).toBe(1);
	});

	it('finds the loss of a store that came back with nothing', async () => {
		await t.store.write('c', 'k1', 'one', 0);
		const restore = await backend.backup!(t.store);
		t.clock += 5000;
		t.store = await restore(t.now, true);
		const lost = await t.store.lostWrites();
		expect(await t.store.read('c', 'k1')).toBeUndefined();
		expect(lost?.detail).toMatch(/empty|another|anew/);
		expect(lost!.since).toBeLessThanOrEqual(1_000_000);
	});
});

// Two processes on one store: the one that wrote nothing since the backup finds nothing of its own
// missing, yet serves records that went back with the others'. It takes in the same loss. (Redis:
// redis-persistence.test.ts, with a real Redis killed and started from its snapshot; SQLite: one
// process per file, each finds the loss when it opens it.)
describe.each(backends.filter((b) => b.name === 'postgres'))(
	'loss told to every process: $name',
	(backend) => {
		const t = useFreshStore(backend);

		it('tells the loss to a process that wrote nothing since the backup', async () => {
			const other = backend.reopen!(t.now);
			try {
				await other.write('c', 'k0', 'before', 0);
				await t.store.write('c', 'k1', 'one', 0);
				t.clock += 1000;
				const restore = await backend.backup!(t.store);
				t.clock += 60_000;
				await t.store.write('c', 'k2', 'lost', 0);
				t.clock += 1000;
				t.store = await restore(t.now);
				const found = await t.store.lostWrites();
				expect(found?.detail).toMatch(/as it was at|restored/);
				t.clock += 1000;
				expect((await other.lostWrites())?.foundAt).toBe(found?.foundAt);
			} finally {
				await other.close();
			}
		});
	},
);
