/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling: a Redis server of the test's own, never loaded by n8n */
import { StateStoreError } from '../../../runtime/stores/errors';
import { RedisStore } from '../../../runtime/stores/redis';
import { OwnRedis } from '../../helpers/own-redis';

// The loss marker is checked at each connect, in an event listener whose failure nobody awaits.
// A store whose check failed there must not go on as if checked (writing unguarded, keeping no
// time in the marker, never taking in a loss another process found), and a marker that lost this
// process's time without a reconnect must be found as a loss at once, not refuse every write.
let server: OwnRedis;
beforeAll(async () => {
	server = await OwnRedis.start();
});
afterAll(async () => await server.stop());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const MARKER = 'messaging-bot:{~marker}:store';

async function settled<T>(promise: Promise<T>) {
	return await promise.then(
		(value) => ({ value }),
		(error: unknown) => ({ error }),
	);
}

test('a store whose check at connect failed writes nothing until a check succeeds, then keeps its time in the marker', async () => {
	const admin = server.admin();
	await admin.flushall();
	// A user the first check's HSETNX is refused to: every other command of the store works.
	await admin.call('ACL', 'SETUSER', 'bot', 'on', '>pw', '~*', '&*', '+@all', '-hsetnx');
	const store = new RedisStore({
		host: '127.0.0.1',
		port: server.port,
		username: 'bot',
		password: 'pw',
	});
	const refused = await settled(store.write('conversations', 'c1', 'v1', 0));
	expect((refused as { error: unknown }).error).toBeInstanceOf(StateStoreError);
	expect(String((refused as { error: Error }).error.message)).toContain(`127.0.0.1:${server.port}`);
	expect(await admin.exists('messaging-bot:{conversations}:record:c1')).toBe(0);
	// The cause mended: the next command checks first, then writes, and the marker follows it.
	await admin.call('ACL', 'SETUSER', 'bot', '+hsetnx');
	expect(await store.write('conversations', 'c1', 'v1', 0)).toBe(1);
	await sleep(200);
	const marker = await admin.hgetall(MARKER);
	expect(marker.id).toBeDefined();
	expect(Object.keys(marker).filter((field) => field.startsWith('w:'))).toHaveLength(1);
	await store.close();
	await admin.quit();
});

test('a Redis emptied under an open connection is found as a loss at the next command, and writes go on', async () => {
	const admin = server.admin();
	await admin.call('ACL', 'DELUSER', 'bot');
	await admin.flushall();
	const store = new RedisStore({ host: '127.0.0.1', port: server.port });
	expect(await store.write('conversations', 'c2', 'v1', 0)).toBe(1);
	await sleep(200);
	// Emptied with no reconnect (as a failover behind a proxy, or FLUSHALL, leaves the client).
	await admin.flushall();
	const refused = await settled(store.write('conversations', 'c3', 'v1', 0));
	expect((refused as { error: StateStoreError }).error.reason).toBe('lost data');
	expect((await store.lostWrites())?.detail).toMatch(/came back empty/);
	// Known now: the store writes again, into the Redis as it is.
	expect(await store.write('conversations', 'c3', 'v1', 0)).toBe(1);
	await store.close();
	await admin.quit();
});
