/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling: Redis servers of the test's own, never loaded by n8n */
import { Redis } from 'ioredis';

import { RedisStore } from '../../../runtime/stores/redis';
import { persistenceWarning } from '../../../runtime/stores/redis-persistence';
import { OwnRedis } from '../../helpers/own-redis';

const servers: OwnRedis[] = [];
afterAll(async () => {
	for (const server of servers) await server.stop();
});

/** A Redis of the test's own started with `args`, listening when resolved. */
async function ownRedis(...args: string[]): Promise<OwnRedis> {
	const server = await OwnRedis.start(...args);
	servers.push(server);
	return server;
}

async function redisWith(...args: string[]): Promise<RedisStore> {
	return new RedisStore({ host: '127.0.0.1', port: (await ownRedis(...args)).port });
}

// At connect the Redis store reads how its Redis persists, and says what a crash of it loses.
describe('what a crash of the Redis loses, read at connect', () => {
	it('with the default snapshots and no append-only file: every write since the last snapshot', async () => {
		const store = await redisWith('--save', '3600 1 300 100 60 10000', '--appendonly', 'no');
		const loss = await store.crashLoss();
		expect(loss).toMatch(/^every write since its last snapshot .+save "3600 1 300 100 60 10000"/);
		const warning = persistenceWarning(store.where, loss as string);
		process.stdout.write(`connect-time warning: ${warning}\n`);
		expect(warning).toMatch(
			/^The Redis state store at 127\.0\.0\.1:\d+ database 0 can lose writes/,
		);
		await store.close();
	});

	it('with no persistence at all: everything', async () => {
		const store = await redisWith('--save', '', '--appendonly', 'no');
		expect(await store.crashLoss()).toMatch(/^everything: it keeps nothing on disk/);
		await store.close();
	});

	it('with the append-only file and fsync on every write: nothing, so nothing is said', async () => {
		const store = await redisWith('--appendonly', 'yes', '--appendfsync', 'always');
		expect(await store.crashLoss()).toBeUndefined();
		await store.close();
	});

	it('with CONFIG disabled: falls back on INFO persistence and says it could not read the rest', async () => {
		const store = await redisWith('--save', '60 1', '--rename-command', 'CONFIG', '');
		expect(await store.crashLoss()).toMatch(/CONFIG GET was refused/);
		expect(await store.claim('d', 'a', 1000)).toBe(true);
		await store.close();
	});
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The marker's touch follows a write by a few milliseconds; one that reaches a Redis which has
// just come back older (from ioredis's offline queue, or resent after the reconnect, before the
// marker is checked) must not write this process's latest time back over the older one.
describe('the loss marker under a touch that arrives after the loss', () => {
	it('a touch meeting an older marker writes nothing over it, and the check it sets off says the loss', async () => {
		const { port } = await ownRedis('--save', '', '--appendonly', 'no');
		const store = new RedisStore({ host: '127.0.0.1', port });
		const admin = new Redis({ port });
		const markerKey = async () => (await admin.keys('*{~marker}*'))[0];
		expect(await store.claim('d', 'first', 60_000)).toBe(true);
		// The touch follows within a few milliseconds; on a loaded machine, longer: waited for.
		const touched = async () => {
			const key = await markerKey();
			const fields = key ? await admin.hgetall(key) : {};
			const field = Object.keys(fields).find((f) => f.startsWith('w:'));
			return field && { key, field, at: Number(fields[field]) };
		};
		for (let waited = 0; !(await touched()) && waited < 5000; waited += 50) await sleep(50);
		const { key, field, at } = (await touched()) as { key: string; field: string; at: number };
		expect(at).toBeGreaterThan(0);
		// Redis "came back" as it was long ago: the marker's time for this process far back.
		await admin.hset(key, field, 1);
		// A write, then its touch, meet that marker: the touch writes nothing over it (it would hide
		// the loss), and the store checks at once, with no reconnect: the loss is said.
		expect(await store.claim('d', 'second', 60_000)).toBe(true);
		await sleep(300);
		expect((await store.lostWrites())?.detail).toMatch(/came back as it was at 1970/);
		// Kept again from the loss on.
		expect(Number(await admin.hget(key, field))).toBeGreaterThanOrEqual(at);
		await admin.quit();
		await store.close();
	});
});

// A loss is the store's, not only its finder's: a process that wrote nothing since the snapshot
// finds nothing of its own missing, yet the records it serves next went back with the others.
// And two processes that both lost writes found one loss, not two (each would rebuild twice).
describe('a loss of writes, told to every process on the store', () => {
	/** Two stores (two processes) on a Redis that dies after a snapshot and comes back from it. */
	async function crashAfterSnapshot(writeAfter: (stores: RedisStore[]) => Promise<void>) {
		const server = await ownRedis('--save', '', '--appendonly', 'no');
		const port = server.port;
		const stores = [0, 1].map(() => new RedisStore({ host: '127.0.0.1', port }));
		for (const [i, store] of stores.entries())
			expect(await store.claim('d', `a${i}`, 60_000)).toBe(true);
		await sleep(100);
		const admin = new Redis({ port, lazyConnect: true, retryStrategy: () => null });
		await admin.bgsave();
		await sleep(300);
		admin.disconnect();
		await writeAfter(stores);
		await sleep(100);
		await server.kill();
		await server.restart();
		await sleep(1500);
		return stores;
	}

	it('a process that lost nothing of its own takes in the loss another found, when it next asks', async () => {
		const [finder, idle] = await crashAfterSnapshot(async ([finder]) => {
			expect(await finder.claim('d', 'b', 60_000)).toBe(true);
		});
		// The idle process reconnected and checked its own time: nothing of its own is lost.
		expect(await idle.claim('d', 'c', 60_000)).toBe(true);
		const found = await finder.lostWrites();
		expect(found?.detail).toMatch(/came back as it was/);
		expect((await idle.lostWrites())?.foundAt).toBe(found?.foundAt);
		await finder.close();
		await idle.close();
	});

	it('two processes that both lost writes take one loss', async () => {
		const told = [0, 0];
		const stores = await crashAfterSnapshot(async (both) => {
			for (const [i, store] of both.entries()) {
				store.onLoss(() => told[i]++);
				expect(await store.claim('d', `b${i}`, 60_000)).toBe(true);
			}
		});
		const [first, second] = await Promise.all(
			stores.map(async (store) => await store.lostWrites()),
		);
		expect(first?.detail).toMatch(/came back as it was/);
		expect(second?.foundAt).toBe(first?.foundAt);
		// Each told once: a second loss would begin its healing session again.
		expect(told).toEqual([1, 1]);
		for (const store of stores) await store.close();
	});
});
