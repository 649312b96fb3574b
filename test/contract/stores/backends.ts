/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling: temporary files, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Redis } from 'ioredis';

import { MemoryStore, type StateStore } from '../../../runtime/stores';
import { RedisStore } from '../../../runtime/stores/redis';
import { SqliteStore } from '../../../runtime/stores/sqlite';

/** Every store implementation, opened fresh per test: the contract suites run against each. */
export type Backend = {
	name: string;
	open(now: () => number): StateStore;
	reopen?: (now: () => number) => StateStore;
};

const dir = mkdtempSync(path.join(tmpdir(), 'mb-stores-'));
let fileNo = 0;
let lastFile = '';
// The machine's Redis (the one n8n queue mode would use); each test gets its own key prefix.
const REDIS_URL = process.env.MESSAGING_BOT_TEST_REDIS ?? 'redis://127.0.0.1:6379/0';
const redisRun = `mb-contract-${process.pid}-${Date.now()}`;
let lastPrefix = '';

/** Removes the files and Redis keys the backends made (an afterAll of each suite). */
export async function cleanUp(): Promise<void> {
	rmSync(dir, { recursive: true, force: true });
	const redis = new Redis(REDIS_URL);
	const keys = await redis.keys(`${redisRun}*`);
	if (keys.length > 0) await redis.del(...keys);
	await redis.quit();
}

export const backends: Backend[] = [
	{ name: 'memory', open: (now) => new MemoryStore(now) },
	{
		name: 'sqlite',
		open: (now) => new SqliteStore((lastFile = path.join(dir, `s${++fileNo}.sqlite`)), now),
		reopen: (now) => new SqliteStore(lastFile, now),
	},
	{
		name: 'redis',
		open: (now) => new RedisStore(REDIS_URL, (lastPrefix = `${redisRun}-${++fileNo}`), now),
		reopen: (now) => new RedisStore(REDIS_URL, lastPrefix, now),
	},
];

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
