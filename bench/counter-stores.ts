/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import path from 'node:path';

import { MemoryStore } from '../runtime/stores';
import type { PostgresCredential } from '../runtime/stores/postgres-options';
import { PostgresStore } from '../runtime/stores/postgres';
import { RedisStore } from '../runtime/stores/redis';
import { SqliteStore } from '../runtime/stores/sqlite';
import type { CounterStore } from './counters-side';
import { REDIS_URL } from './lib';

// BENCH_PG_FLUSH=0: the PostgreSQL store with Flush Each Write to Disk off (synchronous_commit off).
export const PG_FLUSH = process.env.BENCH_PG_FLUSH !== '0';

/** Where a run's stores live: SQLite files in `dir`, Redis keys under `redisPrefix`, a database. */
export type StorePlace = { dir: string; redisPrefix: string; pg: PostgresCredential };

export type KindOfStore = 'memory' | 'sqlite' | 'redis' | 'postgres';

/** The counters bench's four stores, each opened afresh per side and round. */
export function counterStores({
	dir,
	redisPrefix,
	pg,
}: StorePlace): Array<CounterStore & { kind: KindOfStore }> {
	return [
		{ kind: 'memory', name: 'MemoryStore', open: () => new MemoryStore() },
		{
			kind: 'sqlite',
			name: 'SqliteStore',
			open: (i) => new SqliteStore(path.join(dir, `k${i}.sqlite`)),
		},
		{
			kind: 'redis',
			name: 'RedisStore',
			open: (i) => new RedisStore(REDIS_URL, `${redisPrefix}-k${i}`),
		},
		{
			kind: 'postgres',
			name: 'PostgresStore',
			open: (i) => new PostgresStore({ ...pg, schema: `k${i}`, flushEachWrite: PG_FLUSH }),
		},
	];
}
