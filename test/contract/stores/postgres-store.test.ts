/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling: reads the docs, never loaded by n8n */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { PostgresCredential } from '../../../runtime/stores/postgres-options';
import { pingPostgres, PostgresStore } from '../../../runtime/stores/postgres';
import {
	MIGRATIONS,
	postgresDdl,
	quoteIdentifier,
	VERSION_TABLE,
} from '../../../runtime/stores/postgres-schema';
import { openCountersReadOnly } from '../../../runtime/stores/read-only';
import { createTestDatabase, dropTestDatabase, queryTest } from '../../helpers/postgres-db';

// What only the PostgreSQL store has: its schema made on first use or by hand, its errors.
let pg: PostgresCredential;
const role = `mb_limited_${process.pid}`;
/** A password the errors must never show (trust auth ignores it). */
const NOT_PRINTED = ['not', 'printed', '1234'].join('-');
beforeAll(async () => {
	pg = await createTestDatabase('pgstore');
});
afterAll(async () => {
	await dropTestDatabase(pg);
	await queryTest(pg, `DROP ROLE IF EXISTS ${role}`).catch(() => undefined);
});

describe('PostgreSQL store: its schema', () => {
	it('is made on first use in the schema asked for, at the latest version, once', async () => {
		const store = new PostgresStore({ ...pg, schema: 'Bots_Here' });
		expect(await store.write('c', 'k', 'v', 0)).toBe(1);
		await store.close();
		// Opened again: nothing made twice, the record kept.
		const again = new PostgresStore({ ...pg, schema: 'Bots_Here' });
		expect(await again.read('c', 'k')).toEqual({ value: 'v', version: 1 });
		await again.close();
		const versions = await queryTest<{ version: number }>(
			pg,
			'SELECT version FROM "Bots_Here".schema_version',
		);
		expect(versions).toEqual(MIGRATIONS.map((_, i) => ({ version: i + 1 })));
	});

	it('brings a schema of an earlier release up to date; a batch sent the earlier way still counts', async () => {
		const s = quoteIdentifier('earlier');
		const steps = MIGRATIONS.slice(0, 2).map(
			(m, i) => `${m(s)};\nINSERT INTO ${s}.schema_version (version) VALUES (${i + 1})`,
		);
		await queryTest(
			pg,
			[`CREATE SCHEMA ${s}`, `SET search_path TO ${s}`, VERSION_TABLE(s), ...steps].join(';\n'),
		);
		const store = new PostgresStore({ ...pg, schema: 'earlier' });
		expect(await store.write('c', 'k0', 'v', 0)).toBe(1);
		// A process of the earlier release: each write's counts as mb_write's last parameter.
		const counts = (n: number) => JSON.stringify([{ k: 'h', i: { a: n }, e: 2 * Date.now() }]);
		const write = (key: string, n: number) => ({
			op: 'write',
			a: ['c', key, 'v', 0, Date.now(), null, 0, null, null, null, null, 'n', counts(n)],
		});
		const [{ answers }] = await queryTest<{ answers: unknown[] }>(
			pg,
			'SELECT earlier.mb_batch($1::jsonb) AS answers',
			[JSON.stringify([write('k1', 1), write('k1', 10), write('k2', 100)])],
		);
		expect(answers).toEqual([1, null, 1]);
		expect(await store.counters('n', '')).toEqual([{ key: 'h', fields: { a: 101 } }]);
		await store.close();
		const versions = await queryTest<{ version: number }>(
			pg,
			'SELECT version FROM earlier.schema_version ORDER BY version',
		);
		expect(versions).toEqual(MIGRATIONS.map((_, i) => ({ version: i + 1 })));
	});

	it('reads conversations issued together in one statement, each its own record and inbox', async () => {
		const store = new PostgresStore({ ...pg, schema: 'reads' });
		await store.write('rec', 'a', 'va', 0);
		await store.write('rec', 'c', 'vc', 0);
		const [e1, e2, e3] = [
			await store.enqueue('in', 'qa', ['m1'], 'e1', 60_000),
			await store.enqueue('in', 'qa', ['m2'], 'e2', 60_000),
			await store.enqueue('in', 'qb', ['m3'], 'e3', 60_000),
		];
		const at = (key: string, queue: string, limit = 10) => ({
			recordNamespace: 'rec',
			key,
			inboxNamespace: 'in',
			queue,
			limit,
		});
		const reads = await Promise.all([
			store.readConversation(at('a', 'qa')),
			store.readConversation(at('b', 'qb')),
			store.readConversation(at('c', 'qc')),
			store.readConversation(at('a', 'qa', 1)),
		]);
		const entry = (seq: number | null, value: string) => ({ seq, value, at: expect.any(Number) });
		expect(reads).toEqual([
			{ record: { value: 'va', version: 1 }, queued: [entry(e1, 'e1'), entry(e2, 'e2')] },
			{ record: undefined, queued: [entry(e3, 'e3')] },
			{ record: { value: 'vc', version: 1 }, queued: [] },
			{ record: { value: 'va', version: 1 }, queued: [entry(e1, 'e1')] },
		]);
		// Alone, as before.
		expect(await store.readConversation(at('c', 'qa', 5))).toEqual({
			record: { value: 'vc', version: 1 },
			queued: [entry(e1, 'e1'), entry(e2, 'e2')],
		});
		await store.close();
	});

	it('refuses a schema name that is not a plain identifier, saying the rule', async () => {
		expect(() => new PostgresStore({ ...pg, schema: 'x"; DROP TABLE y; --' })).toThrow(
			/Schema "x"; DROP TABLE y; --" is not a plain schema name: use 1 to 63 letters, digits or underscores/,
		);
		expect(await pingPostgres({ ...pg, schema: 'bad name' })).toMatch(/not a plain schema name/);
	});

	it('works for a user without CREATE rights once the DDL of the docs was run by hand', async () => {
		await queryTest(pg, `CREATE ROLE ${role} LOGIN`);
		await queryTest(pg, `REVOKE CREATE ON DATABASE ${pg.database} FROM PUBLIC`);
		const limited = { ...pg, user: role, schema: 'by_hand', password: NOT_PRINTED };
		const refused = new PostgresStore(limited);
		const failure = refused.claim('d', 'x', 1000);
		await expect(failure).rejects.toThrow(
			new RegExp(
				`^The PostgreSQL state store at 127\\.0\\.0\\.1:\\d+, database ${pg.database} failed: permission denied .+Grant the user CREATE on the database, or run the DDL of docs/postgres-store\\.md`,
			),
		);
		await expect(failure).rejects.not.toThrow(/not-printed/);
		await refused.close();
		// The owner runs the DDL (as printed in the docs) and grants the tables to the user.
		await queryTest(pg, postgresDdl('by_hand'));
		await queryTest(
			pg,
			`GRANT USAGE ON SCHEMA by_hand TO ${role}; GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA by_hand TO ${role}; GRANT USAGE ON ALL SEQUENCES IN SCHEMA by_hand TO ${role}`,
		);
		const store = new PostgresStore(limited);
		expect(await store.claim('d', 'x', 1000)).toBe(true);
		expect(await store.enqueue('i', 'q', ['m1'], 'hello', 1000)).not.toBeNull();
		expect(await store.write('c', 'k', 'v', 0, { dueAt: 5 })).toBe(1);
		await store.close();
	});

	it('the docs print the DDL in full, as the store runs it', () => {
		const docs = readFileSync(path.join(__dirname, '../../../docs/postgres-store.md'), 'utf8');
		expect(docs).toContain(postgresDdl());
	});
});

describe('PostgreSQL store read by the CLI and the studio (a postgres:// URL)', () => {
	const url = (schema: string) =>
		`postgres://postgres@${pg.host}:${pg.port}/${pg.database}?schema=${schema}`;

	it('reads the counters a store wrote', async () => {
		const store = new PostgresStore({ ...pg, schema: 'read_me' });
		const counters = {
			namespace: 'n',
			hashes: [{ key: 'k|day', incr: new Map([['a', 2]]), expiresAt: 2 * Date.now() }],
		};
		await store.write('c', 'k', 'v', 0, { counters });
		await store.close();
		const reader = openCountersReadOnly(url('read_me'));
		expect(reader.where).toBe(`${pg.host}:${pg.port}, database ${pg.database}`);
		expect(await reader.counters('n', 'k|')).toEqual([{ key: 'k|day', fields: { a: 2 } }]);
		await reader.close();
	});

	it('makes nothing where there is no store, and says so', async () => {
		const reader = openCountersReadOnly(url('nothing_here'));
		await expect(reader.counters('n', '')).rejects.toThrow(
			/failed: the store's tables do not exist/,
		);
		await reader.close();
		const schemas = await queryTest(
			pg,
			"SELECT 1 FROM pg_namespace WHERE nspname = 'nothing_here'",
		);
		expect(schemas).toEqual([]);
	});
});

describe('PostgreSQL store errors', () => {
	it('names the server and database it could not reach and the cause, never the password', async () => {
		const store = new PostgresStore({
			host: '127.0.0.1',
			port: 1,
			database: 'bots',
			password: 'hunter2-secret',
		});
		const failure = store.claim('d', 'x', 1000);
		await expect(failure).rejects.toThrow(
			/^The PostgreSQL state store at 127\.0\.0\.1:1, database bots failed: connection refused .+Check that PostgreSQL is running/,
		);
		await expect(failure).rejects.not.toThrow(/hunter2/);
		await store.close();
	});

	it('says a database that does not exist', async () => {
		const store = new PostgresStore({ ...pg, database: 'mb_no_such_database' });
		await expect(store.read('c', 'k')).rejects.toThrow(
			/database mb_no_such_database failed: the database does not exist/,
		);
		await store.close();
	});

	it('the credential test: SELECT 1 answered, or the reason it was not', async () => {
		expect(await pingPostgres(pg)).toBeNull();
		expect(await pingPostgres({ ...pg, port: 1 })).toMatch(
			/^The PostgreSQL state store at 127\.0\.0\.1:1, database .+ failed: connection refused/,
		);
	});
});

describe('PostgreSQL store: its loss marker under open connections', () => {
	it('finds tables put back under its open connections at the stamp after its next write', async () => {
		const store = new PostgresStore({ ...pg, schema: 'under_open' });
		await store.write('c', 'k', 'one', 0);
		await new Promise((resolve) => setTimeout(resolve, 100));
		await store.write('c', 'k', 'two', 1);
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(await store.lostWrites()).toBeUndefined();
		// The marker put back as an older backup held it, the store's connections left open.
		await queryTest(pg, "UPDATE under_open.marker SET value = '1000' WHERE name LIKE 'w:%'");
		await store.write('c', 'k', 'three', 2);
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect((await store.lostWrites())?.detail).toMatch(/as it was at 1970-01-01T00:00:01\.000Z/);
		await store.close();
	});
});
