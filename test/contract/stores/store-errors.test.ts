/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test tooling: a full disk, an immutable file and a Redis of the test's own, never loaded by n8n */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { StateStoreError } from '../../../runtime/stores/errors';
import { pingRedis, RedisStore } from '../../../runtime/stores/redis';
import { SqliteStore } from '../../../runtime/stores/sqlite';

// Every store error names the store, says the cause in words and what to do, and never a secret:
// shown on the faults themselves (a full disk, an immutable file, a Redis out of memory).
const dir = mkdtempSync(path.join(tmpdir(), 'mb-store-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function failure(work: () => Promise<unknown>): Promise<StateStoreError> {
	try {
		await work();
	} catch (error) {
		expect(error).toBeInstanceOf(StateStoreError);
		return error as StateStoreError;
	}
	throw new Error('the store did not fail');
}

describe('SQLite store errors', () => {
	it('on a file made immutable: the file, "read-only", and how to make it writable', async () => {
		const file = path.join(dir, 'immutable', 'state.sqlite');
		const store = new SqliteStore(file);
		await store.write('c', 'k', 'one', 0);
		// The database, its log and its folder (the shared-memory index stays: SQLite maps it).
		const files = [file, `${file}-wal`, path.dirname(file)];
		execFileSync('chattr', ['+i', ...files]);
		try {
			const error = await failure(async () => {
				for (let i = 0; i < 100; i++) await store.write('c', `k${i}`, 'x'.repeat(5000), 0);
				await store.close();
			});
			expect(error.reason).toBe('read-only');
			expect(error.message).toMatch(
				new RegExp(`^The SQLite state store at ${file} failed: it is read-only \\(.+\\)\\. `),
			);
			expect(error.message).toContain('chattr -i');
		} finally {
			execFileSync('chattr', ['-i', ...files]);
			await store.close().catch(() => undefined);
		}
	});

	it('on a full disk: the file, "the disk is full", and to free space; writes go on once freed', async () => {
		const mount = path.join(dir, 'small');
		mkdirSync(mount);
		execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2M', 'tmpfs', mount]);
		const file = path.join(mount, 'state.sqlite');
		let store: SqliteStore | undefined;
		try {
			store = new SqliteStore(file);
			await store.write('c', 'k', 'one', 0);
			try {
				writeFileSync(path.join(mount, 'fill'), Buffer.alloc(4 * 1024 * 1024));
			} catch {
				// ENOSPC: the disk is now full, as meant.
			}
			const open = store;
			const error = await failure(async () => {
				for (let i = 0; i < 200; i++) await open.write('c', `k${i}`, 'x'.repeat(20_000), 0);
			});
			expect(error.reason).toBe('disk full');
			expect(error.message).toMatch(
				new RegExp(
					`^The SQLite state store at ${file} failed: the disk is full \\(.+\\)\\. Free space`,
				),
			);
			rmSync(path.join(mount, 'fill'));
			expect(await store.write('c', 'after', 'two', 0)).toBe(1);
			expect(await store.read('c', 'k')).toEqual({ value: 'one', version: 1 });
		} finally {
			await store?.close().catch(() => undefined);
			execFileSync('umount', [mount]);
		}
	});

	it('on a folder it cannot create: the path, and to check the State File option', () => {
		const blocker = path.join(dir, 'a-file');
		writeFileSync(blocker, '');
		expect(() => new SqliteStore(path.join(blocker, 'state.sqlite'))).toThrow(
			/^The SQLite state store at .+a-file\/state\.sqlite failed: .+\. Check the State File option/,
		);
	});
});

describe('Redis store errors', () => {
	const port = 6390 + (process.pid % 50);
	let server: ChildProcess;
	beforeAll(async () => {
		server = spawn('redis-server', [
			'--port',
			String(port),
			'--save',
			'',
			'--maxmemory',
			'2mb',
			'--maxmemory-policy',
			'noeviction',
			'--requirepass',
			'hunter2-secret',
		]);
		await new Promise((resolve) => setTimeout(resolve, 300));
	});
	afterAll(() => server.kill('SIGKILL'));

	it('out of memory: host, port and database, the cause, what to do, never the password', async () => {
		const store = new RedisStore({ host: '127.0.0.1', port, password: 'hunter2-secret', db: 2 });
		try {
			const error = await failure(async () => {
				for (let i = 0; i < 500; i++) await store.write('c', `k${i}`, 'x'.repeat(20_000), 0);
			});
			expect(error.reason).toBe('out of memory');
			expect(error.message).toMatch(
				/^The Redis state store at 127\.0\.0\.1:\d+ database 2 failed: it is out of memory \(OOM .+\)\. Redis reached its maxmemory/,
			);
			expect(error.message).not.toContain('hunter2');
		} finally {
			await store.close();
		}
	});

	it('a wrong password: permission, and to check the credential', async () => {
		const store = new RedisStore({ host: '127.0.0.1', port, password: 'not-it' });
		try {
			const error = await failure(async () => await store.claim('d', 'x', 1000));
			expect(error.reason).toBe('permission');
			expect(error.message).toMatch(
				/failed: permission denied \(.+\)\. Check the user and password/,
			);
			expect(error.message).not.toContain('not-it');
		} finally {
			await store.close();
		}
	});

	it('unreachable: the Redis it could not reach, never its password', async () => {
		const store = new RedisStore({ host: '127.0.0.1', port: 1, password: 'hunter2-secret' });
		try {
			const error = await failure(async () => await store.claim('d', 'x', 1000));
			expect(error.message).toMatch(
				/^The Redis state store at 127\.0\.0\.1:1 database 0 failed: it cannot be reached \(.+\)\. Check the Messaging Bot Redis State Store credential/,
			);
			expect(error.message).not.toContain('hunter2');
		} finally {
			await store.close();
		}
	});

	it('the credential test: PING answered, or the reason it was not', async () => {
		expect(await pingRedis({ host: '127.0.0.1', port: 6379, database: 0 })).toBeNull();
		expect(await pingRedis({ host: '127.0.0.1', port: 1 })).toMatch(/ECONNREFUSED/);
	});
});
