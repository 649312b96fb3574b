/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test tooling: spawns processes, temporary files */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Redis } from 'ioredis';

import type { PostgresCredential } from '../../../runtime/stores/postgres-options';
import { PostgresStore } from '../../../runtime/stores/postgres';
import { MIGRATIONS } from '../../../runtime/stores/postgres-schema';
import { RedisStore } from '../../../runtime/stores/redis';
import { SqliteStore } from '../../../runtime/stores/sqlite';
import type { StateStore } from '../../../runtime/stores/types';
import { createTestDatabase, dropTestDatabase, queryTest } from '../../helpers/postgres-db';

const REDIS_URL = process.env.MESSAGING_BOT_TEST_REDIS ?? 'redis://127.0.0.1:6379/0';
const dir = mkdtempSync(path.join(tmpdir(), 'mb-two-'));
const prefix = `mb-two-${process.pid}-${Date.now()}`;
const tsx = path.join(__dirname, '../../../node_modules/.bin/tsx');
const worker = path.join(__dirname, 'store-worker.ts');
const PROCESSES = 3;
const ROUNDS = 150;

// The machine's PostgreSQL: a database of this run's own, dropped after.
let pg: PostgresCredential | undefined;
beforeAll(async () => {
	pg = await createTestDatabase('two');
});

afterAll(async () => {
	await dropTestDatabase(pg);
	rmSync(dir, { recursive: true, force: true });
	const redis = new Redis(REDIS_URL);
	const keys = await redis.keys(`${prefix}*`);
	if (keys.length > 0) await redis.del(...keys);
	await redis.quit();
});

type Outcome = { conflicts: number; appended: string[] };

/** Starts every worker, waits until all are ready, then lets them go at once. */
async function race(kind: string, where: string, openOnGo = false): Promise<Outcome[]> {
	const children = Array.from({ length: PROCESSES }, (_, i) =>
		spawn(tsx, [worker, kind, where, `${prefix}#p${i}`, String(ROUNDS)], {
			stdio: ['pipe', 'pipe', 'inherit'],
			env: { ...process.env, MB_OPEN_ON_GO: openOnGo ? '1' : '0' },
		}),
	);
	// Every child has started (tsx takes a while, more under load) before any is let go.
	const outputs = children.map(() => '');
	const results = children.map(
		(child, i) =>
			new Promise<Outcome>((resolve, reject) => {
				child.stdout.on('data', (chunk: Buffer) => (outputs[i] += chunk.toString()));
				child.on('exit', (code) =>
					code === 0
						? resolve(JSON.parse(outputs[i].replace(/^ready\n/, '')) as Outcome)
						: reject(new Error(`exit ${code}`)),
				);
			}),
	);
	while (
		!outputs.every((o) => o.startsWith('ready\n')) &&
		children.every((c) => c.exitCode === null)
	)
		await new Promise((resolve) => setTimeout(resolve, 20));
	for (const child of children) child.stdin.end('go\n');
	return await Promise.all(results);
}

describe.each([
	{
		kind: 'sqlite',
		where: () => path.join(dir, 'shared.sqlite'),
		open: (w: string) => new SqliteStore(w),
	},
	{ kind: 'redis', where: () => REDIS_URL, open: (w: string) => new RedisStore(w, prefix) },
	{
		kind: 'postgres',
		where: () => JSON.stringify({ ...pg, schema: 'two' }),
		open: (w: string) => new PostgresStore(JSON.parse(w) as PostgresCredential),
	},
])('$kind: several OS processes on one store', ({ kind, where, open }) => {
	let store: StateStore;
	afterAll(async () => store?.close());

	it('loses no compare-and-set increment and appends each id once', async () => {
		const outcomes = await race(kind, where());
		store = open(where());
		// Every increment landed: nobody overwrote another's write.
		expect(Number((await store.read('counter', 'n'))?.value)).toBe(PROCESSES * ROUNDS);
		// Each id went in once, whichever process won it.
		const won = outcomes.flatMap((o) => o.appended).sort();
		expect(won).toHaveLength(ROUNDS);
		expect(new Set(won).size).toBe(ROUNDS);
		expect(await store.queued('inbox', 'q', 10_000)).toHaveLength(ROUNDS);
		// The processes really overlapped: some writes met another's first.
		expect(outcomes.reduce((n, o) => n + o.conflicts, 0)).toBeGreaterThan(0);
		// Each applied step counted once, by the process that applied it; lost ones not at all.
		const [counted] = await store.counters('counted', 'day');
		expect(counted.fields.steps).toBe(PROCESSES * ROUNDS);
		const byProcess = outcomes.map((_, i) => counted.fields[`by:p${i}`] ?? 0);
		expect(byProcess.reduce((a, b) => a + b, 0)).toBe(PROCESSES * ROUNDS);
	}, 60_000);

	it('counts exactly the steps applied when the processes are killed mid-burst', async () => {
		const killed = await killMidBurst(kind, where(), async () =>
			Number((await store.read('counter', 'n'))?.value ?? 0),
		);
		const applied = Number((await store.read('counter', 'n'))?.value);
		expect(applied).toBeGreaterThan(killed.before);
		// Dead indeed: nothing moves any more.
		await new Promise((resolve) => setTimeout(resolve, 300));
		expect(Number((await store.read('counter', 'n'))?.value)).toBe(applied);
		const [counted] = await store.counters('counted', 'day');
		expect(counted.fields.steps).toBe(applied);
	}, 60_000);
});

/** Starts the workers on an endless burst, and SIGKILLs them once it is well under way. */
async function killMidBurst(
	kind: string,
	where: string,
	applied: () => Promise<number>,
): Promise<{ before: number }> {
	const before = await applied();
	// Node itself with tsx's loader (not tsx's CLI, which runs a second process): SIGKILL hits the worker.
	const children = Array.from({ length: 2 }, (_, i) =>
		spawn(
			process.execPath,
			['--import', 'tsx', worker, kind, where, `${prefix}#k${i}`, '1000000'],
			{
				stdio: ['pipe', 'pipe', 'inherit'],
			},
		),
	);
	await Promise.all(
		children.map(
			(child) => new Promise((resolve) => child.stdout.once('data', () => resolve(undefined))),
		),
	);
	for (const child of children) child.stdin.end('go\n');
	while ((await applied()) < before + 300) await new Promise((r) => setTimeout(r, 10));
	const exits = children.map((child) => new Promise((resolve) => child.once('exit', resolve)));
	for (const child of children) child.kill('SIGKILL');
	await Promise.all(exits);
	return { before };
}

describe('sqlite: a file written before records could expire', () => {
	it('is opened by several processes at once: the column is added once, nothing is lost', async () => {
		const file = path.join(dir, 'old.sqlite');
		const old = new DatabaseSync(file);
		// As the store always wrote its files: in WAL mode.
		old.exec('PRAGMA journal_mode = WAL');
		old.exec(
			'CREATE TABLE records (ns TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, version INTEGER NOT NULL, PRIMARY KEY (ns, key)) WITHOUT ROWID',
		);
		old.exec("INSERT INTO records VALUES ('kept', 'k', 'from before', 3)");
		old.close();
		// The three workers open (and migrate) the file at the same moment.
		const outcomes = await race('sqlite', file, true);
		const store = new SqliteStore(file);
		try {
			expect(await store.read('kept', 'k')).toEqual({ value: 'from before', version: 3 });
			expect(Number((await store.read('counter', 'n'))?.value)).toBe(PROCESSES * ROUNDS);
			expect(outcomes.flatMap((o) => o.appended)).toHaveLength(ROUNDS);
		} finally {
			await store.close();
		}
	}, 60_000);
});

describe('postgres: a new schema first used by several processes at once', () => {
	it('is created once, each migration recorded once, nothing lost', async () => {
		const where = JSON.stringify({ ...pg, schema: 'fresh_at_once' });
		// Each worker's first statement comes on the go signal: all three find no tables.
		const outcomes = await race('postgres', where, true);
		const store = new PostgresStore(JSON.parse(where) as PostgresCredential);
		try {
			expect(Number((await store.read('counter', 'n'))?.value)).toBe(PROCESSES * ROUNDS);
			expect(outcomes.flatMap((o) => o.appended)).toHaveLength(ROUNDS);
			const versions = await queryTest<{ version: number }>(
				pg as PostgresCredential,
				'SELECT version FROM fresh_at_once.schema_version ORDER BY version',
			);
			expect(versions.map((v) => v.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
		} finally {
			await store.close();
		}
	}, 60_000);
});
