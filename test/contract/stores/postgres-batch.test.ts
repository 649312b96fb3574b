import type { PostgresCredential } from '../../../runtime/stores/postgres-options';
import { PostgresStore } from '../../../runtime/stores/postgres';
import { batchJson, SUMMED_LOST, WriteCounts } from '../../../runtime/stores/postgres-batch-counts';
import type { WriteOptions } from '../../../runtime/stores';
import { createTestDatabase, dropTestDatabase, queryTest } from '../../helpers/postgres-db';

// The group commit sums its writes' counts in the process: a sum is right only if every write
// that counts is kept, so a batch where one loses must be undone and run write by write.
let pg: PostgresCredential;
beforeAll(async () => {
	pg = await createTestDatabase('pgbatch');
});
afterAll(() => dropTestDatabase(pg));

const DEADLINE = 9e15;
const hashes = (incr: Record<string, number>, key = 'flow@1|day') => [
	{ key, incr: new Map(Object.entries(incr)), expiresAt: DEADLINE },
];
const counting = (incr: Record<string, number>): WriteOptions => ({
	counters: { namespace: 'n', hashes: hashes(incr) },
});
/** mb_write's parameters, as postgres.ts's write gives them. */
const write = (key: string, expected: number, counts: WriteCounts | null, now = 1000) => ({
	name: 'write',
	values: ['c', key, 'v', expected, now, null, 0, null, null, null, null, 'n', counts],
});

describe('PostgreSQL group commit: counts summed per batch', () => {
	it('sends each counter of a batch once, summed over its writes', () => {
		const [ops, counted, latest, sum] = batchJson([
			write('a', 0, new WriteCounts(hashes({ entered: 1, 'edge:a>b': 1 }))),
			{ name: 'noteActive', values: ['a', 'k', 1, 2] },
			write('b', 0, null),
			write('c', 0, new WriteCounts(hashes({ entered: 2 })), 3000),
		]);
		expect(JSON.parse(ops)).toHaveLength(4);
		expect(ops).not.toContain('entered');
		expect(counted).toBe('{0,3}');
		expect(latest).toBe(3000);
		expect(JSON.parse(sum as string)).toEqual([
			{ s: 'n', k: 'flow@1|day', e: DEADLINE, i: { entered: 3, 'edge:a>b': 1 } },
		]);
		expect(batchJson([write('b', 0, null)]).slice(1)).toEqual(['{}', null, null]);
	});

	it('undoes a batch in which a write that counts lost (SQLSTATE MB412), keeping nothing', async () => {
		const store = new PostgresStore({ ...pg, schema: 'direct' });
		expect(await store.write('c', 'taken', 'v', 0)).toBe(1);
		const batch = batchJson([
			write('fresh', 0, new WriteCounts(hashes({ entered: 1 }))),
			write('taken', 0, new WriteCounts(hashes({ entered: 5 }))),
		]);
		const sql = 'SELECT direct.mb_batch_summed($1::jsonb, $2::int[], $3::bigint, $4::jsonb) AS a';
		await expect(queryTest(pg, sql, batch)).rejects.toMatchObject({ code: SUMMED_LOST });
		expect(await store.read('c', 'fresh')).toBeUndefined();
		expect(await store.counters('n', '')).toEqual([]);
		// All kept: the writes and their sum, in one statement.
		const kept = batchJson([write('fresh', 0, new WriteCounts(hashes({ entered: 1 })))]);
		expect(await queryTest(pg, sql, kept)).toEqual([{ a: [1] }]);
		expect(await store.counters('n', '')).toEqual([{ key: 'flow@1|day', fields: { entered: 1 } }]);
		await store.close();
	});

	it('runs such a batch write by write: each kept write counted once, the lost one never', async () => {
		const store = new PostgresStore({ ...pg, schema: 'store' });
		const together = await Promise.all([
			store.write('c', 'a', 'x', 0, counting({ entered: 1, 'edge:a>b': 1 })),
			store.write('c', 'a', 'lost', 0, counting({ entered: 100 })),
			store.write('c', 'b', 'y', 0, counting({ entered: 10 })),
			store.write('c', 'd', 'z', 0),
		]);
		expect(together).toEqual([1, null, 1, 1]);
		expect(await store.counters('n', '')).toEqual([
			{ key: 'flow@1|day', fields: { entered: 11, 'edge:a>b': 1 } },
		]);
		// And the next batch, all kept, is summed again.
		const next = await Promise.all([
			store.write('c', 'a', 'x2', 1, counting({ entered: 1 })),
			store.write('c', 'b', 'y2', 1, counting({ entered: 1 })),
		]);
		expect(next).toEqual([2, 2]);
		expect((await store.counters('n', ''))[0].fields).toEqual({ entered: 13, 'edge:a>b': 1 });
		await store.close();
	});
});
