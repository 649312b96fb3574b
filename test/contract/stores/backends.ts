/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling: temporary files, never loaded by n8n */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Redis } from 'ioredis';

import { MemoryStore, type StateStore } from '../../../runtime/stores';
import type { PostgresCredential } from '../../../runtime/stores/postgres-options';
import { PostgresStore } from '../../../runtime/stores/postgres';
import { RedisStore } from '../../../runtime/stores/redis';
import { nodeSqlite, SqliteStore } from '../../../runtime/stores/sqlite';
import { createTestDatabase, dropTestDatabase, queryTest } from '../../helpers/postgres-db';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every store implementation, opened fresh per test: the contract suites run against each. */
export type Backend = {
	name: string;
	open(now: () => number): StateStore;
	reopen?: (now: () => number) => StateStore;
	/**
	 * Takes a backup of the store as it is now, the way its users do (a Redis snapshot, a copy of
	 * the file). The function it gives puts the backup back in the store's place (`empty`: puts
	 * nothing back, as a Redis without persistence comes back) and answers the store to go on
	 * with: the same one reconnected, or one opened again. None: the store cannot lose writes
	 * without losing the process (memory).
	 */
	backup?: (
		store: StateStore,
	) => Promise<(now: () => number, empty?: boolean) => Promise<StateStore>>;
};

const dir = mkdtempSync(path.join(tmpdir(), 'mb-stores-'));
let fileNo = 0;
let lastFile = '';
// The machine's Redis (the one n8n queue mode would use); each test gets its own key prefix.
const REDIS_URL = process.env.MESSAGING_BOT_TEST_REDIS ?? 'redis://127.0.0.1:6379/0';
const redisRun = `mb-contract-${process.pid}-${Date.now()}`;
let lastPrefix = '';
// The machine's PostgreSQL: a database of this run's own, each test a schema of its own in it.
let pg: PostgresCredential | undefined;
let lastSchema = '';
beforeAll(async () => {
	pg = await createTestDatabase('contract');
});

/** Removes the files and Redis keys the backends made (an afterAll of each suite). */
export async function cleanUp(): Promise<void> {
	rmSync(dir, { recursive: true, force: true });
	const redis = new Redis(REDIS_URL);
	const keys = await redis.keys(`${redisRun}*`);
	if (keys.length > 0) await redis.del(...keys);
	await redis.quit();
	await dropTestDatabase(pg);
}

export const backends: Backend[] = [
	{ name: 'memory', open: (now) => new MemoryStore(now) },
	{
		name: 'sqlite',
		open: (now) => new SqliteStore((lastFile = path.join(dir, `s${++fileNo}.sqlite`)), now),
		reopen: (now) => new SqliteStore(lastFile, now),
		backup: async (store) => {
			const file = (store as SqliteStore).file;
			const copy = `${file}.backup`;
			// A consistent copy of a file in use, as a backup tool takes it.
			rmSync(copy, { force: true });
			const reader = new (nodeSqlite().DatabaseSync)(file);
			reader.exec(`VACUUM INTO '${copy}'`);
			reader.close();
			return async (now, empty) => {
				await store.close();
				for (const log of ['-wal', '-shm']) rmSync(`${file}${log}`, { force: true });
				if (empty) rmSync(file);
				else copyFileSync(copy, file);
				return new SqliteStore(file, now);
			};
		},
	},
	{
		name: 'redis',
		open: (now) => new RedisStore(REDIS_URL, (lastPrefix = `${redisRun}-${++fileNo}`), now),
		reopen: (now) => new RedisStore(REDIS_URL, lastPrefix, now),
		backup: async (store) => {
			const prefix = lastPrefix;
			const redis = new Redis(REDIS_URL);
			// The marker follows a write within a few milliseconds: a snapshot holds what it held.
			await sleep(100);
			const keys = await redis.keys(`${prefix}:*`);
			const dumps = await Promise.all(
				keys.map(async (key) => [key, await redis.dumpBuffer(key)] as const),
			);
			await redis.quit();
			return async (_now, empty) => {
				await sleep(100);
				const back = new Redis(REDIS_URL);
				const now = await back.keys(`${prefix}:*`);
				if (now.length > 0) await back.del(...now);
				if (!empty) for (const [key, dump] of dumps) if (dump) await back.restore(key, 0, dump);
				await back.quit();
				// The store's connection drops and comes back, as it does when Redis restarts.
				const connection = (store as unknown as { redis: Redis }).redis;
				const reconnected = new Promise((resolve) => connection.once('ready', resolve));
				connection.disconnect(true);
				await reconnected;
				return store;
			};
		},
	},
	{
		name: 'postgres',
		open: (now) => new PostgresStore({ ...pg, schema: (lastSchema = `s${++fileNo}`) }, now),
		reopen: (now) => new PostgresStore({ ...pg, schema: lastSchema }, now),
		backup: async (store) => {
			const schema = lastSchema;
			const copy = `${schema}_backup`;
			// The marker follows a write within a few milliseconds: a backup holds what it held.
			await sleep(100);
			await queryTest(
				pg!,
				`DROP SCHEMA IF EXISTS ${copy} CASCADE; CREATE SCHEMA ${copy};
				${PG_TABLES.map((t) => `CREATE TABLE ${copy}.${t} AS TABLE ${schema}.${t};`).join('\n')}`,
			);
			return async (_now, empty) => {
				await sleep(100);
				// A restore ends the connections to the database (pg_restore --clean, a restart).
				await queryTest(
					pg!,
					'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
				);
				await queryTest(
					pg!,
					empty
						? `DROP SCHEMA ${schema} CASCADE`
						: `TRUNCATE ${PG_TABLES.map((t) => `${schema}.${t}`).join(', ')};
							${PG_TABLES.map((t) => `INSERT INTO ${schema}.${t} SELECT * FROM ${copy}.${t};`).join('\n')}`,
				);
				// The pool drops the connections the server ended.
				await sleep(100);
				return store;
			};
		},
	},
];

/** The PostgreSQL store's tables a backup holds (postgres-schema.ts). */
const PG_TABLES = ['claims', 'records', 'dues', 'inbox', 'counters', 'active', 'marker'];

/**
 * Each test's store: `backend` opened fresh on a clock the test moves (`clock`), closed after.
 * `store` may be replaced by a test (a restart); the one it holds at the end is closed.
 */
export function useFreshStore(backend: Backend): {
	store: StateStore;
	clock: number;
	now: () => number;
} {
	const start = 1_000_000;
	const fresh = { store: undefined as unknown as StateStore, clock: start, now: () => fresh.clock };
	beforeEach(() => {
		fresh.clock = start;
		fresh.store = backend.open(fresh.now);
	});
	afterEach(async () => fresh.store.close());
	return fresh;
}
