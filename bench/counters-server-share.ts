/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { Client } from 'pg';

import { PostgresStore } from '../runtime/stores/postgres';
import { createTestDatabase, dropTestDatabase } from '../test/helpers/postgres-db';
import { CHUNKS, side } from './counters-side';
import { table } from './lib';
import { messages } from './order-traffic';
import { interleaved, overheadRow } from './overhead-verdict';

/**
 * Whether the PostgreSQL server's share of the counters (the upsert of each batch's sums) moves
 * this process's CPU: two PostgreSQL stores with the counters on, fed in turns as the counters
 * bench feeds its sides, one of them with mb_batch_summed replaced (after its untimed messages) by
 * one that writes the batch and leaves the counters alone. A ratio of 1 says the server's work is
 * the server's alone; the verdict of `bench:scenarios` then stands for this process.
 * `npx tsx bench/counters-server-share.ts` (about 2 minutes; BENCH_COUNTER_ROUNDS, default 8).
 */
const ROUNDS = Number(process.env.BENCH_COUNTER_ROUNDS ?? 8);
const UNTIMED = 3_000;
const MESSAGES = 8_000;

const WITHOUT_UPSERT = (schema: string) => `
CREATE OR REPLACE FUNCTION ${schema}.mb_batch_summed(p_ops jsonb, p_counted int[], p_latest bigint, p_sum jsonb)
RETURNS jsonb LANGUAGE plpgsql SET search_path TO ${schema} SET jit = off AS $$
BEGIN RETURN mb_batch_each(p_ops); END $$;`;

async function main(): Promise<void> {
	const pg = await createTestDatabase('server_share');
	const client = new Client({ host: pg.host, port: pg.port, user: pg.user, database: pg.database });
	await client.connect();
	try {
		const events = messages(UNTIMED + MESSAGES, 'k');
		let n = 0;
		const [summed, unsummed] = await interleaved(ROUNDS, CHUNKS, async (i) => {
			const schema = `s${++n}`;
			const opened = await side(
				new PostgresStore({ ...pg, schema, flushEachWrite: true }),
				events,
				UNTIMED,
				true,
			);
			if (i === 1) await client.query(WITHOUT_UPSERT(schema));
			return opened;
		});
		const labels = { off: 'no upsert', on: 'upsert', short: 'upsert' };
		process.stdout.write(
			`PostgreSQL, counters on, the server's upsert of the sums kept against left out (${ROUNDS} rounds):\n${table([{ store: 'PostgresStore', ...overheadRow(labels, unsummed, summed, 0.1) }])}\n`,
		);
	} finally {
		await client.end();
		await dropTestDatabase(pg);
	}
}

void main();
