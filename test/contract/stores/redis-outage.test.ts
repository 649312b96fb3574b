/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test tooling: a Redis server of the test's own, killed and started again, never loaded by n8n */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Redis } from 'ioredis';

import { freePort } from '../../../scripts/lib/n8n-process';
import { StateStoreError } from '../../../runtime/stores/errors';
import { RedisStore } from '../../../runtime/stores/redis';

// A command sent while the store's Redis is down waits in the client's queue, and one in flight
// when it died is sent again: both reach a Redis that came back empty before the store has
// checked its marker. Their answers must not be taken for the store's state: a read answered by
// the emptied Redis, or a first write landing in it, is refused as a loss, never acted on.
const dir = mkdtempSync(path.join(tmpdir(), 'mb-redis-outage-'));
let server: ChildProcess | undefined;
afterAll(() => {
	server?.kill('SIGKILL');
	rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A Redis with no persistence (it comes back empty), started on `port`, listening when resolved. */
async function startRedis(port: number): Promise<void> {
	server = spawn('redis-server', [
		'--port',
		String(port),
		'--dir',
		dir,
		'--save',
		'',
		'--appendonly',
		'no',
	]);
	for (let waited = 0; waited < 3000; waited += 10) {
		// A bare PING: a store's probe would write its own marker into the new Redis.
		const probe = new Redis({
			host: '127.0.0.1',
			port,
			lazyConnect: true,
			retryStrategy: () => null,
		});
		const up = await probe.ping().then(
			() => true,
			() => false,
		);
		probe.disconnect();
		if (up) return;
		await sleep(10);
	}
	throw new Error(`redis-server did not start on ${port}`);
}

/** A store with a conversation written and its marker touched, then its Redis killed. */
async function storeThenCrash(): Promise<{ store: RedisStore; restart: () => Promise<void> }> {
	const port = await freePort();
	await startRedis(port);
	const store = new RedisStore({ host: '127.0.0.1', port });
	expect(await store.write('conversations', 'known', 'v1', 0)).toBe(1);
	// The marker's touch follows a write within a few milliseconds.
	await sleep(200);
	server?.kill('SIGKILL');
	await new Promise((resolve) => server?.once('exit', resolve));
	return { store, restart: async () => await startRedis(port) };
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
		const port = await freePort();
		await startRedis(port);
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
