/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- end-to-end tooling, never loaded by n8n */
import { execFileSync } from 'node:child_process';

/** A PostgreSQL server on loopback with trust auth for `postgres`: the machine's, or a test's own. */
export interface PgServer {
	host: string;
	port: string | number;
}

/**
 * One SQL statement run with `psql` as `postgres`, its rows unaligned, without headers, trimmed.
 * Up to 1 GB read: a report may read every execution of a run, or every record of a store. Its
 * messages are kept from the test's output (an error a caller expects, such as a race lost to
 * another worker, would read as a failure there) and given with the error when it fails.
 */
export function psqlAt(server: PgServer, database: string, sql: string): string {
	return execFileSync(
		'psql',
		['-h', server.host, '-p', String(server.port), '-U', 'postgres', '-d', database, '-tAc', sql],
		{ encoding: 'utf8', maxBuffer: 1024 ** 3, stdio: ['ignore', 'pipe', 'pipe'] },
	).trim();
}
