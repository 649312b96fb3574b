/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling: a Redis server of the test's own, killed and started again, never loaded by n8n */
import { Redis } from 'ioredis';

import { StateStoreError } from '../../../runtime/stores/errors';
import { RedisStore } from '../../../runtime/stores/redis';
import { OwnRedis } from '../../helpers/own-redis';

// A command sent while the store's Redis is down waits in the client's queue, and one in flight
// when it died is sent again: both reach a Redis that came back empty before the store has
// checked its marker. Their answers must not be taken for the store's state: a read answered by
// the emptied Redis, or a first write landing in it, is refused as a loss, never acted on.
const servers: OwnRedis[] = [];
afterAll(async () => {
	for (const server of servers) await server.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function ownRedis(): Promise<OwnRedis> {
	const server = await OwnRedis.start();
	servers.push(server);
	return server;
}

/** A store with a conversation written and its marker touched, then its Redis killed. */
async function storeThenCrash(): Promise<{ store: RedisStore; restart: () => Promise<void> }> {
	const server = await ownRedis();
	const store = new RedisStore({ host: '127.0.0.1', port: server.port });
	expect(await store.write('conversations', 'known', 'v1', 0)).toBe(1);
	// The marker's touch follows a write within a few milliseconds.
	await sleep(200);
	await server.kill();
	return { store, restart: async () => await server.restart() };
}

async function settled<T>(promise: Promise<T>) {
	return await promise.then(
		(value) => ({ value }),
		(error: unknown) => ({ error }),
	);
}

describe('commands sent while the Redis is down, answered by a Redis that came back empty', () => {
	it('a read is refused as a loss, not answered "no such conversation"', async () => {
		const { store, restart } = await storeThenCrash();
		const read = settled(store.read('conversations', 'known'));
		await restart();
		const outcome = await read;
		expect(outcome).toHaveProperty('error');
		const error = (outcome as { error: StateStoreError }).error;
		expect(error).toBeInstanceOf(StateStoreError);
		expect(error.reason).toBe('lost data');
		expect((await store.lostWrites())?.detail).toMatch(/came back empty/);
		// Read again once the loss is known: the store answers as it now is.
		expect(await store.read('conversations', 'known')).toBeUndefined();
		await store.close();
	});

	it('a first write of a conversation does not land, and is refused as a loss', async () => {
		const { store, restart } = await storeThenCrash();
		const write = settled(store.write('conversations', 'new', 'v1', 0));
		await restart();
		const outcome = await write;
		expect(outcome).toHaveProperty('error');
		expect((outcome as { error: StateStoreError }).error.reason).toBe('lost data');
		expect(await store.lostWrites()).toBeDefined();
		expect(await store.read('conversations', 'new')).toBeUndefined();
		await store.close();
	});

	it('with nothing lost (the connection dropped, Redis kept its data), a command sent meanwhile is answered', async () => {
		const server = await ownRedis();
		const port = server.port;
		const store = new RedisStore({ host: '127.0.0.1', port });
		expect(await store.write('conversations', 'kept', 'v1', 0)).toBe(1);
		await sleep(200);
		// A dropped connection, Redis itself still up with every write.
		const admin = new Redis({ host: '127.0.0.1', port });
		await admin.call('CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes');
		// Sent as the store's connection goes: answered on the next one, after its check.
		const read = settled(store.read('conversations', 'kept'));
		expect(await read).toEqual({ value: { value: 'v1', version: 1 } });
		expect(await store.read('conversations', 'kept')).toEqual({ value: 'v1', version: 1 });
		expect(await store.lostWrites()).toBeUndefined();
		await admin.quit();
		await store.close();
	});
});
