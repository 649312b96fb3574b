import type { PoolConfig } from 'pg';

import { DEFAULT_SCHEMA } from './postgres-schema';

/** The fields of the Messaging Bot PostgreSQL credential (named as n8n's own Postgres credential). */
export type PostgresCredential = {
	host?: string;
	port?: number;
	database?: string;
	user?: string;
	password?: string;
	/** disable, allow (plain, TLS if the server insists), require (TLS, unverified), verify. */
	ssl?: 'disable' | 'allow' | 'require' | 'verify';
	/** PEM; with verify: the certificate authority the server's certificate must chain to. */
	caCertificate?: string;
	schema?: string;
	maxConnections?: number;
	/**
	 * False: commits return before PostgreSQL has flushed them (synchronous_commit off), several
	 * times faster where a flush is slow; a crash of the server (not of n8n) then loses the last
	 * fraction of a second of writes. Default true.
	 */
	flushEachWrite?: boolean;
};

/** Where the store is, as errors say it (never the password). */
export function postgresWhere(c: PostgresCredential): string {
	return `${c.host || 'localhost'}:${Number(c.port) || 5432}, database ${c.database || 'postgres'}`;
}

export function postgresSchema(c: PostgresCredential): string {
	return (c.schema ?? '').trim() || DEFAULT_SCHEMA;
}

/** The pool's settings; `tls` forces TLS without verification (the fallback of "allow"). */
export function postgresPoolConfig(c: PostgresCredential, tls = false): PoolConfig {
	const mode = c.ssl ?? 'disable';
	const ca = c.caCertificate?.trim() || undefined;
	const ssl =
		mode === 'verify'
			? { rejectUnauthorized: true, ca }
			: mode === 'require' || (mode === 'allow' && tls)
				? { rejectUnauthorized: false }
				: false;
	return {
		host: c.host || 'localhost',
		port: Number(c.port) || 5432,
		database: c.database || 'postgres',
		user: c.user || 'postgres',
		password: c.password || undefined,
		ssl,
		max: Math.max(1, Number(c.maxConnections) || 10),
		connectionTimeoutMillis: 5_000,
		idleTimeoutMillis: 30_000,
		keepAlive: true,
		// A statement stuck behind a lock fails, named, instead of holding an execution forever.
		statement_timeout: 30_000,
		application_name: 'n8n-nodes-messaging-bot',
	};
}

const SSL_MODES: Record<string, PostgresCredential['ssl']> = {
	disable: 'disable',
	allow: 'allow',
	prefer: 'allow',
	require: 'require',
	'verify-ca': 'verify',
	'verify-full': 'verify',
};

export const isPostgresUrl = (where: string) => /^postgres(ql)?:\/\//.test(where);

/**
 * A postgres://user:password@host:port/database?schema=…&sslmode=… URL as the credential's
 * fields (for the CLI and the studio, which take a store as one argument).
 */
export function postgresFromUrl(where: string): PostgresCredential {
	const url = new URL(where);
	const mode = url.searchParams.get('sslmode');
	return {
		host: decodeURIComponent(url.hostname) || undefined,
		port: Number(url.port) || undefined,
		database: decodeURIComponent(url.pathname.slice(1)) || undefined,
		user: decodeURIComponent(url.username) || undefined,
		password: decodeURIComponent(url.password) || undefined,
		schema: url.searchParams.get('schema') ?? undefined,
		ssl: (mode && SSL_MODES[mode]) || 'disable',
	};
}
