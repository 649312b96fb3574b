import { StateStoreError } from './errors';

type PgFailure = Error & { code?: string; errno?: number };

/** A cause in words and what to do, by SQLSTATE or socket error code. */
const CAUSES: Array<[RegExp, string, string]> = [
	[
		/^ECONNREFUSED$/,
		'connection refused',
		'Check that PostgreSQL is running and listens on that host and port.',
	],
	[/^(ENOTFOUND|EAI_AGAIN)$/, 'unknown host', 'Check the host name in the credential.'],
	[
		/^(ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|TIMEOUT)$/,
		'no answer (timed out)',
		'Check the host, the port and any firewall between n8n and PostgreSQL.',
	],
	[
		/^(ECONNRESET|EPIPE|CLOSED)$/,
		'connection lost',
		'PostgreSQL closed the connection (restarted or stopped?); the next attempt reconnects.',
	],
	[/^28P01$/, 'authentication failed', 'Check the user and password in the credential.'],
	[
		/^28000$/,
		'connection not allowed (pg_hba.conf, or SSL required)',
		"Check the server's pg_hba.conf for this user and host, and the credential's SSL mode.",
	],
	[/^3D000$/, 'the database does not exist', 'Check the database name, or create it.'],
	[
		/^3F000$/,
		'the schema does not exist',
		'Create it, or let the store create it (CREATE rights on the database).',
	],
	[
		/^42P01$/,
		"the store's tables do not exist",
		'Run a workflow with this store once (it makes them), or run the DDL of docs/postgres-store.md.',
	],
	[
		/^42501$/,
		'permission denied',
		'Grant the user CREATE on the database, or run the DDL of docs/postgres-store.md as an owner and grant the user its tables.',
	],
	[/^53100$/, "PostgreSQL's disk is full", "Free space on the database server's disk."],
	[/^53200$/, 'PostgreSQL is out of memory', 'Check the server.'],
	[
		/^53300$/,
		'too many connections',
		"Lower the credential's Maximum Connections, or raise the server's max_connections.",
	],
	[
		/^57P0[123]$/,
		'PostgreSQL is shutting down, restarting or starting',
		'Wait for it to accept connections; the service retries the delivery.',
	],
	[
		/^25006$/,
		'the server is read-only (a standby, or default_transaction_read_only)',
		'Point the credential at the primary.',
	],
	[
		/^57014$/,
		'a statement took longer than 30 s (waiting for a lock?)',
		"Check for long transactions holding locks on the store's tables.",
	],
	[
		/^(40001|40P01)$/,
		'serialization failure or deadlock, retried 5 times',
		'Lower the number of processes writing one conversation at once.',
	],
];

function codeOf(error: PgFailure): string {
	if (error.code) return error.code;
	if (/timeout/i.test(error.message)) return 'TIMEOUT';
	if (/Connection terminated|not queryable|closed/i.test(error.message)) return 'CLOSED';
	return '';
}

/** True for a failure that left nothing done and may simply be tried again. */
export function retryable(error: unknown): boolean {
	return /^(40001|40P01)$/.test(codeOf(error as PgFailure));
}

/** True when the failure came before any statement was sent (connecting): safe to try again. */
export function notConnected(error: unknown): boolean {
	return /^(ECONNREFUSED|57P03|CLOSED|ECONNRESET|TIMEOUT)$/.test(codeOf(error as PgFailure));
}

/**
 * A failure as a user can act on it: which store (host, port, database), the cause in words, the
 * server's own message, and what to do. PostgreSQL's messages never hold the password.
 */
export function storeFailure(where: string, error: unknown): StateStoreError {
	// Named already (a write run alone after its batch failed).
	if (error instanceof StateStoreError) return error;
	const failure = error as PgFailure;
	const code = codeOf(failure);
	const known = CAUSES.find(([pattern]) => pattern.test(code));
	const cause = known ? `${known[1]} (${failure.message})` : failure.message;
	const todo = known ? known[2] : 'Check the Messaging Bot PostgreSQL State Store credential.';
	return new StateStoreError(`The PostgreSQL state store at ${where} failed: ${cause}. ${todo}`, {
		cause: failure,
	});
}
