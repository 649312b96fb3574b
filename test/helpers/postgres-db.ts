/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling: a database of the run's own, never loaded by n8n */
import { Client } from 'pg';

import type { PostgresCredential } from '../../runtime/stores/postgres-options';

/**
 * The machine's PostgreSQL (trust auth on loopback, user postgres), as n8n's queue mode uses it;
 * MESSAGING_BOT_TEST_PG=host:port points elsewhere. Each run makes a database of its own and drops
 * it after: tests never touch n8n's databases or another run's.
 */
const [HOST, PORT] = (process.env.MESSAGING_BOT_TEST_PG ?? '127.0.0.1:5432').split(':');
const TEST_PG: PostgresCredential = { host: HOST, port: Number(PORT), user: 'postgres' };

async function onServer<T>(database: string, work: (c: Client) => Promise<T>): Promise<T> {
	const client = new Client({
		host: TEST_PG.host,
		port: TEST_PG.port,
		user: TEST_PG.user,
		database,
	});
	await client.connect();
	try {
		return await work(client);
	} finally {
		await client.end();
	}
}

/** A new database named for this process (letters, digits, underscores only: no quoting needed). */
export async function createTestDatabase(tag = 'test'): Promise<PostgresCredential> {
	const name = `mb_${tag}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
	await onServer('postgres', (c) => c.query(`CREATE DATABASE ${name}`));
	return { ...TEST_PG, database: name };
}

export async function dropTestDatabase(credential: PostgresCredential | undefined): Promise<void> {
	if (!credential?.database) return;
	await onServer('postgres', (c) =>
		c.query(`DROP DATABASE IF EXISTS ${credential.database} WITH (FORCE)`),
	);
}

/** Runs one statement in the test database (to look at what the store wrote). */
export async function queryTest<R>(
	credential: PostgresCredential,
	sql: string,
	values: unknown[] = [],
): Promise<R[]> {
	return await onServer(credential.database as string, async (c) => {
		return (await c.query(sql, values)).rows as R[];
	});
}
