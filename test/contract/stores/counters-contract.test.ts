import type { WriteOptions } from '../../../runtime/stores';
import { backends, cleanUp, useFreshStore } from './backends';

afterAll(cleanUp);

const DAY = 86_400_000;

/** One step's counts: the day's and a running total, in two hashes. */
function counting(incr: Record<string, number>, expiresAt = 10 * DAY): WriteOptions {
	return {
		counters: {
			namespace: 'n',
			hashes: [
				{ key: 'flow@1|2026-11-24', incr: new Map(Object.entries(incr)), expiresAt },
				{ key: 'flow@1|now', incr: new Map([['all', 1]]), expiresAt },
			],
		},
	};
}

// Counters ride on the conversation's write: what a step counts lands exactly when the step does.
describe.each(backends)('counter contract: $name', (backend) => {
	const t = useFreshStore(backend);

	it('adds the increments of a write that happens, and nothing for one that loses', async () => {
		expect(await t.store.write('c', 'k', 'a', 0, counting({ entered: 1, 'edge:a>b': 2 }))).toBe(1);
		expect(await t.store.write('c', 'k', 'stale', 0, counting({ entered: 5 }))).toBeNull();
		expect(await t.store.write('c', 'k', 'b', 1, counting({ entered: 1, fallback: -1 }))).toBe(2);
		expect(await t.store.counters('n', 'flow@1|')).toEqual([
			{ key: 'flow@1|2026-11-24', fields: { entered: 2, 'edge:a>b': 2, fallback: -1 } },
			{ key: 'flow@1|now', fields: { all: 2 } },
		]);
		expect(await t.store.counters('n', 'other')).toEqual([]);
		expect(await t.store.counters('elsewhere', '')).toEqual([]);
	});

	it('counts each of many concurrent compare-and-set steps once, the lost ones never', async () => {
		let applied = 0;
		let lost = 0;
		const stepper = async () => {
			for (let i = 0; i < 15; i++)
				for (;;) {
					const current = await t.store.read('c', 'n');
					const value = String(Number(current?.value ?? 0) + 1);
					const options = counting({ steps: 1 });
					if ((await t.store.write('c', 'n', value, current?.version ?? 0, options)) !== null) {
						applied++;
						break;
					}
					lost++;
				}
		};
		await Promise.all(Array.from({ length: 8 }, stepper));
		expect(lost).toBeGreaterThan(0);
		expect(Number((await t.store.read('c', 'n'))?.value)).toBe(applied);
		const [day] = await t.store.counters('n', 'flow@1|2026');
		expect(day.fields).toEqual({ steps: applied });
	});

	it('shows a read made in the same turn as the writes their counts', async () => {
		const writes = [
			t.store.write('c', 'a', 'x', 0, counting({ entered: 1 })),
			t.store.write('c', 'b', 'y', 0, counting({ entered: 2, 'edge:a>b': 1 })),
			t.store.write('c', 'a', 'lost', 0, counting({ entered: 5 })),
		];
		const read = t.store.counters('n', 'flow@1|');
		expect(await Promise.all(writes)).toEqual([1, 1, null]);
		expect(await read).toEqual([
			{ key: 'flow@1|2026-11-24', fields: { entered: 3, 'edge:a>b': 1 } },
			{ key: 'flow@1|now', fields: { all: 2 } },
		]);
	});

	if (backend.reopen) {
		const reopen = backend.reopen;
		it('counts the writes of two connections writing at once, each once', async () => {
			const second = reopen(t.now);
			const writes = Array.from({ length: 40 }, (_, i) =>
				(i % 2 === 0 ? t.store : second).write('c', `k${i % 10}`, `v${i}`, 0, counting({ s: 1 })),
			);
			const won = (await Promise.all(writes)).filter((v) => v !== null).length;
			expect(won).toBe(10);
			expect((await second.counters('n', 'flow@1|2026'))[0].fields).toEqual({ s: won });
			await second.close();
		});
	}

	it('forgets a hash after its deadline; counting starts again from the next write', async () => {
		await t.store.write('c', 'k', 'a', 0, counting({ entered: 3 }, t.clock + DAY));
		t.clock += DAY;
		expect(await t.store.counters('n', '')).toEqual([]);
		await t.store.write('c', 'k', 'b', 1, counting({ entered: 1 }, t.clock + DAY));
		expect(await t.store.counters('n', 'flow@1|2026')).toEqual([
			{ key: 'flow@1|2026-11-24', fields: { entered: 1 } },
		]);
	});

	it('starts a hash again after its deadline when the writes that count go together', async () => {
		await t.store.write('c', 'k', 'a', 0, counting({ entered: 3 }, t.clock + DAY));
		t.clock += DAY;
		const together = [
			t.store.write('c', 'k', 'b', 1, counting({ entered: 1 }, t.clock + DAY)),
			t.store.write('c', 'j', 'x', 0, counting({ entered: 2, left: 1 }, t.clock + DAY)),
		];
		expect(await Promise.all(together)).toEqual([2, 1]);
		expect(await t.store.counters('n', 'flow@1|')).toEqual([
			{ key: 'flow@1|2026-11-24', fields: { entered: 3, left: 1 } },
			{ key: 'flow@1|now', fields: { all: 2 } },
		]);
	});

	it('counts in the write that dequeues and sets a due mark, all or nothing', async () => {
		const seq = (await t.store.enqueue('i', 'q', ['m1'], 'hello', 60_000)) as number;
		const options = {
			...counting({ late: 1 }),
			dueAt: 50,
			dequeue: { namespace: 'i', queue: 'q', seqs: [seq] },
		};
		expect(await t.store.write('c', 'k', 'v', 3, options)).toBeNull();
		expect(await t.store.counters('n', '')).toEqual([]);
		expect(await t.store.queued('i', 'q', 10)).toHaveLength(1);
		expect(await t.store.write('c', 'k', 'v', 0, options)).toBe(1);
		expect(await t.store.queued('i', 'q', 10)).toHaveLength(0);
		expect(await t.store.due('c', 60, 10)).toEqual(['k']);
		expect((await t.store.counters('n', 'flow@1|2026'))[0].fields).toEqual({ late: 1 });
	});
});
