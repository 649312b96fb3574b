import { backends, cleanUp, useFreshStore } from './backends';

afterAll(cleanUp);

/** Conversation k: its record in c, its inbox queue k in i. */
const at = (limit: number) => ({
	recordNamespace: 'c',
	key: 'k',
	inboxNamespace: 'i',
	queue: 'k',
	limit,
});

// The inboxes, every backend: appends once per id, reads with the record, takes with a write.
describe.each(backends)('state store inbox contract: $name', (backend) => {
	const t = useFreshStore(backend);

	it('appends to a queue once per id, all claims or none', async () => {
		const a = await t.store.enqueue('i', 'q1', ['d:1', 'm:1'], 'first', 1000);
		expect(a).not.toBeNull();
		expect(await t.store.enqueue('i', 'q1', ['d:2', 'm:1'], 'copy', 1000)).toBeNull();
		// The refused append claimed nothing: d:2 is still free.
		const b = await t.store.enqueue('i', 'q1', ['d:2', 'm:2'], 'second', 1000);
		expect(b).toBeGreaterThan(a as number);
		expect(await t.store.claim('i', 'd:2', 1000)).toBe(false);
		expect((await t.store.queued('i', 'q1', 10)).map((e) => [e.seq, e.value, e.at])).toEqual([
			[a, 'first', t.clock],
			[b, 'second', t.clock],
		]);
		expect(await t.store.queued('i', 'q2', 10)).toEqual([]);
		expect(await t.store.queued('other', 'q1', 10)).toEqual([]);
		t.clock += 1000;
		expect(await t.store.enqueue('i', 'q1', ['m:1'], 'after expiry', 1000)).not.toBeNull();
	});

	it('keeps values with any characters, and dequeues by seq', async () => {
		const text = 'a:b:{"x":1}\n\u00e9';
		const s1 = (await t.store.enqueue('i', 'q', ['1'], text, 1000)) as number;
		const s2 = (await t.store.enqueue('i', 'q', ['2'], 'two', 1000)) as number;
		const s3 = (await t.store.enqueue('i', 'q', ['3'], 'three', 1000)) as number;
		expect((await t.store.queued('i', 'q', 1))[0].value).toBe(text);
		await t.store.dequeue('i', 'q', [s2]);
		expect((await t.store.queued('i', 'q', 10)).map((e) => e.seq)).toEqual([s1, s3]);
		await t.store.dequeue('i', 'q', [s1, s3]);
		expect(await t.store.queued('i', 'q', 10)).toEqual([]);
	});

	it('reads a conversation: its record and its inbox together, as read and queued do', async () => {
		expect(await t.store.readConversation(at(10))).toEqual({
			record: undefined,
			queued: [],
		});
		await t.store.write('c', 'k', 'rec:"1"\n', 0, { expiresAt: t.clock + 1000 });
		const seqs = [];
		for (const value of ['a:b:{"x":1}\n\u00e9', 'two', 'three'])
			seqs.push(await t.store.enqueue('i', 'k', [value], value, 1000));
		await t.store.enqueue('other', 'k', ['x'], 'elsewhere', 1000);
		await t.store.write('other', 'k', 'not this one', 0);
		const read = await t.store.readConversation(at(2));
		expect(read).toEqual({
			record: { value: 'rec:"1"\n', version: 1 },
			queued: await t.store.queued('i', 'k', 2),
		});
		expect(read.queued.map((e) => [e.seq, e.at])).toEqual([
			[seqs[0], t.clock],
			[seqs[1], t.clock],
		]);
		// A step's write takes its entry with it: both show in the next read.
		await t.store.write('c', 'k', 'rec 2', 1, {
			expiresAt: t.clock + 1000,
			dequeue: { namespace: 'i', queue: 'k', seqs: [seqs[0] as number] },
		});
		const after = await t.store.readConversation(at(10));
		expect(after.record).toEqual({ value: 'rec 2', version: 2 });
		expect(after.queued.map((e) => e.seq)).toEqual(seqs.slice(1));
		// An expired record reads as absent; the inbox is still there.
		t.clock += 1000;
		const expired = await t.store.readConversation(at(10));
		expect(expired.record).toBeUndefined();
		expect(expired.queued).toHaveLength(2);
	});

	it('reads the inbox no later than the record: an applied entry is never missing from both', async () => {
		const seqs: number[] = [];
		for (let i = 0; i < 15; i++)
			seqs.push((await t.store.enqueue('i', 'k', [`m${i}`], `m${i}`, 10 ** 6))!);
		let applying = true;
		// A writer applies the entries one by one, each write taking its entry out of the inbox.
		const writer = (async () => {
			let version = 0;
			for (let i = 0; i < seqs.length; i++) {
				const applied = JSON.stringify(seqs.slice(0, i + 1));
				const dequeue = { namespace: 'i', queue: 'k', seqs: [seqs[i]] };
				version = (await t.store.write('c', 'k', applied, version, { dequeue }))!;
			}
			applying = false;
		})();
		let reads = 0;
		while (applying || reads === 0) {
			const read = await t.store.readConversation(at(100));
			const applied = new Set<number>(read.record ? JSON.parse(read.record.value) : []);
			const queued = new Set(read.queued.map((e) => e.seq));
			expect(seqs.filter((s) => !applied.has(s) && !queued.has(s))).toEqual([]);
			reads++;
		}
		await writer;
	});

	it('lists the queues whose oldest entry waited since a time, oldest first', async () => {
		await t.store.enqueue('i', 'old', ['a'], 'x', 10 ** 6);
		t.clock += 100;
		await t.store.enqueue('i', 'new', ['b'], 'x', 10 ** 6);
		const s = (await t.store.enqueue('i', 'old', ['c'], 'y', 10 ** 6)) as number;
		expect(await t.store.stalled('i', t.clock - 100, 10)).toEqual(['old']);
		expect(await t.store.stalled('i', t.clock, 10)).toEqual(['old', 'new']);
		expect(await t.store.stalled('i', t.clock, 1)).toEqual(['old']);
		const [first] = await t.store.queued('i', 'old', 1);
		await t.store.dequeue('i', 'old', [first.seq]);
		// Its head is now the later entry.
		expect(await t.store.stalled('i', t.clock - 100, 10)).toEqual([]);
		await t.store.dequeue('i', 'old', [s]);
		expect(await t.store.stalled('i', t.clock, 10)).toEqual(['new']);
	});

	it('lists keys noted active since a time, latest first; a later note wins, never an earlier', async () => {
		const hour = 3_600_000;
		await t.store.noteActive('a', 'k1', t.clock - 300, hour);
		await t.store.noteActive('a', 'k2', t.clock - 200, hour);
		await t.store.noteActive('a', 'k3', t.clock - 100, hour);
		await t.store.noteActive('b', 'k9', t.clock, hour);
		expect(await t.store.active('a', t.clock - 250, 10)).toEqual(['k3', 'k2']);
		expect(await t.store.active('a', 0, 2)).toEqual(['k3', 'k2']);
		// k1 active again, later than the others; an older note of k3 changes nothing.
		await t.store.noteActive('a', 'k1', t.clock - 50, hour);
		await t.store.noteActive('a', 'k3', t.clock - 1000, hour);
		expect(await t.store.active('a', t.clock - 250, 10)).toEqual(['k1', 'k3', 'k2']);
		expect(await t.store.active('a', t.clock - 60, 10)).toEqual(['k1']);
		expect(await t.store.active('b', 0, 10)).toEqual(['k9']);
		expect(await t.store.active('c', 0, 10)).toEqual([]);
	});

	it('notes active keys concurrently without losing one, each at its latest time', async () => {
		await Promise.all(
			Array.from({ length: 40 }, (_, i) =>
				t.store.noteActive('a', `k${i % 20}`, t.clock + i, 3_600_000),
			),
		);
		const keys = await t.store.active('a', t.clock + 20, 100);
		expect(keys).toEqual(Array.from({ length: 20 }, (_, i) => `k${19 - i}`));
	});

	it('takes the first entries of a queue once, whoever asks at the same time', async () => {
		for (let i = 0; i < 10; i++) await t.store.enqueue('i', 'q', [`t${i}`], `v${i}`, 1000);
		const takers = await Promise.all([t.store.take('i', 'q', 4), t.store.take('i', 'q', 4)]);
		const values = takers.flat().map((e) => e.value);
		expect(values.sort()).toEqual(['v0', 'v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'v7']);
		expect((await t.store.take('i', 'q', 10)).map((e) => e.value)).toEqual(['v8', 'v9']);
		expect(await t.store.take('i', 'q', 10)).toEqual([]);
		expect(await t.store.stalled('i', t.clock, 10)).toEqual([]);
	});

	it('takes queue entries out with a write, only when the write happens', async () => {
		const a = (await t.store.enqueue('i', 'q', ['a'], 'first', 10 ** 6)) as number;
		t.clock += 10;
		const b = (await t.store.enqueue('i', 'q', ['b'], 'second', 10 ** 6)) as number;
		const dequeue = { namespace: 'i', queue: 'q', seqs: [a] };
		// A write that loses its compare-and-set takes nothing out.
		expect(await t.store.write('c', 'k', 'v', 3, { dequeue })).toBeNull();
		expect((await t.store.queued('i', 'q', 10)).map((e) => e.seq)).toEqual([a, b]);
		expect(await t.store.write('c', 'k', 'v', 0, { dequeue, dueAt: t.clock })).toBe(1);
		expect((await t.store.queued('i', 'q', 10)).map((e) => e.seq)).toEqual([b]);
		expect(await t.store.due('c', t.clock, 10)).toEqual(['k']);
		// The queue's head is now the later entry, and with the last one gone it is not stalled.
		expect(await t.store.stalled('i', t.clock - 10, 10)).toEqual([]);
		expect(await t.store.stalled('i', t.clock, 10)).toEqual(['q']);
		const last = { namespace: 'i', queue: 'q', seqs: [b] };
		expect(await t.store.write('c', 'k', 'v2', 1, { dequeue: last })).toBe(2);
		expect(await t.store.queued('i', 'q', 10)).toEqual([]);
		expect(await t.store.stalled('i', t.clock, 10)).toEqual([]);
	});

	it('gives exactly one of 30 concurrent writers of one version the queue entry', async () => {
		const seq = (await t.store.enqueue('i', 'q', ['a'], 'x', 1000)) as number;
		const dequeue = { namespace: 'i', queue: 'q', seqs: [seq] };
		const results = await Promise.all(
			Array.from({ length: 30 }, (_, i) => t.store.write('c', 'k', `w${i}`, 0, { dequeue })),
		);
		expect(results.filter((r) => r !== null)).toEqual([1]);
		expect(await t.store.queued('i', 'q', 10)).toEqual([]);
	});

	it('gives exactly one of 30 concurrent appends of one id the entry', async () => {
		const results = await Promise.all(
			Array.from({ length: 30 }, (_, i) => t.store.enqueue('i', 'q', ['m:same'], `c${i}`, 1000)),
		);
		expect(results.filter((r) => r !== null)).toHaveLength(1);
		expect(await t.store.queued('i', 'q', 100)).toHaveLength(1);
	});
});
