import { backends, cleanUp, useFreshStore } from './backends';

afterAll(cleanUp);

// Run Due Work drops the due mark of a key it finds no record for (expired, or gone). A record
// written under the key meanwhile, a new conversation of the same client, keeps its own mark:
// without it a reply leased there would never be taken over if its worker stopped.
describe.each(backends)('dropping a due mark: $name', (backend) => {
	const t = useFreshStore(backend);

	it('drops it only when it is due and the key has no live record', async () => {
		await t.store.setDue('d', 'gone', t.clock - 10);
		await t.store.write('d', 'live', 'v', 0, { dueAt: t.clock - 10 });
		await t.store.write('d', 'expired', 'v', 0, { dueAt: t.clock - 5, expiresAt: t.clock + 5 });
		await t.store.setDue('d', 'ahead', t.clock + 1000);
		t.clock += 5;
		for (const key of ['gone', 'live', 'expired', 'ahead']) await t.store.dropDue('d', key);
		expect(await t.store.due('d', t.clock + 2000, 10)).toEqual(['live', 'ahead']);
	});

	it('keeps the mark of a record written under the key after the key was read as absent', async () => {
		await t.store.setDue('d', 'k', t.clock - 10);
		expect(await t.store.read('d', 'k')).toBeUndefined();
		// Another process starts a conversation under the key, its reply leased for a minute.
		expect(await t.store.write('d', 'k', 'v', 0, { dueAt: t.clock + 60_000 })).toBe(1);
		await t.store.dropDue('d', 'k');
		expect(await t.store.due('d', t.clock + 60_000, 10)).toEqual(['k']);
	});
});
