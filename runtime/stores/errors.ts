/**
 * Why a store could not be used, in the words a user acts on. Every store's error names the store
 * (its file, or host:port and database), the cause and what to do; never a password.
 */
export type StoreCause =
	| 'disk full'
	| 'out of memory'
	| 'read-only'
	| 'permission'
	| 'locked'
	| 'unreachable'
	| 'lost data'
	| 'unknown';

/** The store an error is about: its kind and where it is (never a secret). */
export interface StoreName {
	kind: 'SQLite' | 'Redis' | 'memory';
	/** The file's path, or `host:port database N`. */
	where: string;
}

/** The shared store could not be used; the message names it, the cause and what to do. */
export class StateStoreError extends Error {
	override name = 'StateStoreError';
	/** The cause in words (`unknown` when the store's answer says no more). */
	reason: StoreCause = 'unknown';
	/** Which store, for figures and tests. */
	store?: StoreName;
}

const SQLITE_REMEDY: Record<StoreCause, (where: string) => string> = {
	'disk full': (where) =>
		`Free space on the disk that holds ${where} (or give the State File a disk with room). Deliveries that failed meanwhile are retried by the service, and Run Due Work finishes what was accepted.`,
	'out of memory': () => 'Give n8n more memory, then run the workflow again.',
	'read-only': (where) =>
		`Make ${where} and its folder writable for the user n8n runs as (chattr -i if it was made immutable; remount a file system mounted read-only). Deliveries that failed meanwhile are retried by the service.`,
	permission: (where) =>
		`Give the user n8n runs as read and write access to ${where} and its folder, or choose another State File.`,
	locked: () =>
		'Another program holds the file locked (a backup tool, or an n8n on a network file system): stop it, or give each n8n its own State File.',
	unreachable: () =>
		'Check the State File option: its folder must exist or be creatable, and the path must not go through a file.',
	'lost data': () =>
		"The file was replaced by an older copy (a restore from backup): conversations it no longer knows are rebuilt from the service's message history; what cannot be rebuilt is reported per conversation.",
	unknown: () => 'Check the State File and the disk it is on.',
};

const REDIS_REMEDY: Record<StoreCause, (where: string) => string> = {
	'disk full': () =>
		'Redis cannot save its data to its disk and refuses writes (MISCONF): free space on the Redis server, or fix its dir and save settings.',
	'out of memory': () =>
		'Redis reached its maxmemory and refuses writes: give it more memory, or set maxmemory-policy to noeviction with room to spare.',
	'read-only': () =>
		'This Redis is a read-only replica: point the Messaging Bot Redis State Store credential at the primary.',
	permission: () =>
		'Check the user and password of the Messaging Bot Redis State Store credential, and that user’s ACL.',
	locked: () => 'Redis is busy running a script: wait, or look for a long-running command.',
	unreachable: () =>
		'Check the Messaging Bot Redis State Store credential (host, port, database) and that Redis is running.',
	'lost data': () =>
		"Redis came back without writes it had acknowledged (a restart with snapshots or no persistence): conversations it no longer knows are rebuilt from the service's message history; what cannot be rebuilt is reported per conversation. Turn on appendonly with appendfsync everysec or always to lose less.",
	unknown: () => 'Check the Messaging Bot Redis State Store credential and that Redis is running.',
};

const WORDS: Record<StoreCause, string> = {
	'disk full': 'the disk is full',
	'out of memory': 'it is out of memory',
	'read-only': 'it is read-only',
	permission: 'permission denied',
	locked: 'it is locked',
	unreachable: 'it cannot be reached',
	'lost data': 'it lost data it had acknowledged',
	unknown: 'it answered with an error',
};

/**
 * The error for a store failure: which store, the cause in words, what the store said (its own
 * message, when it says more) and what to do.
 */
export function storeError(
	store: StoreName,
	reason: StoreCause,
	said: string | undefined,
	cause?: unknown,
): StateStoreError {
	const remedy = (store.kind === 'Redis' ? REDIS_REMEDY : SQLITE_REMEDY)[reason](store.where);
	const detail = said ? ` (${said})` : '';
	const error = new StateStoreError(
		`The ${store.kind} state store at ${store.where} failed: ${WORDS[reason]}${detail}. ${remedy}`,
		cause === undefined ? undefined : { cause },
	);
	error.reason = reason;
	error.store = store;
	return error;
}

/** The cause of a Redis error, from ioredis's and Redis's own words. */
export function redisCause(error: Error): StoreCause {
	const text = `${(error as { code?: string }).code ?? ''} ${error.message}`;
	if (/\bOOM\b/.test(text)) return 'out of memory';
	if (/\bMISCONF\b/.test(text)) return 'disk full';
	if (/\bREADONLY\b/.test(text)) return 'read-only';
	if (/\b(NOAUTH|WRONGPASS|NOPERM)\b/.test(text)) return 'permission';
	if (/\bBUSY\b/.test(text)) return 'locked';
	if (
		/ECONNREFUSED|ENOTFOUND|ETIMEDOUT|EHOSTUNREACH|ECONNRESET|EPIPE|Connection is closed|max retries|Stream isn't writeable|\bLOADING\b/i.test(
			text,
		)
	)
		return 'unreachable';
	return 'unknown';
}
