// ioredis (bundled): the Redis client n8n's own queue mode uses.
import { Redis, type RedisOptions } from 'ioredis';

import type { StateStore, Versioned } from './types';

/**
 * Each operation is one Lua script, so a claim or a compare-and-set is atomic across every n8n
 * process sharing the Redis (main, webhook and worker processes of queue mode). Expiry compares
 * the caller's clock with a stored deadline (the contract's clock is injectable); Redis's own
 * expiry only collects what is long dead.
 */
const SCRIPTS = {
	// KEYS: claim. ARGV: now, deadline, ttl.
	claim: `
		local expires = tonumber(redis.call('GET', KEYS[1]) or '0')
		if expires > tonumber(ARGV[1]) then return 0 end
		redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
		return 1`,
	// KEYS: record. ARGV: value, expected version. A record is a hash {value, version}.
	write: `
		local current = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
		if current ~= tonumber(ARGV[2]) then return -1 end
		redis.call('HSET', KEYS[1], 'value', ARGV[1], 'version', current + 1)
		return current + 1`,
	// KEYS: record, due index. ARGV: expected version, key.
	remove: `
		local current = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
		if current ~= tonumber(ARGV[1]) then return 0 end
		redis.call('DEL', KEYS[1])
		redis.call('ZREM', KEYS[2], ARGV[2])
		return 1`,
} as const;

type Scripted = Redis & {
	mbClaim(key: string, now: number, deadline: number, ttl: number): Promise<number>;
	mbWrite(key: string, value: string, expected: number): Promise<number>;
	mbRemove(record: string, dues: string, expected: number, key: string): Promise<number>;
};

/** The shared store could not be used; the message names it and what to check. */
export class StateStoreError extends Error {
	override name = 'StateStoreError';
}

export class RedisStore implements StateStore {
	private readonly redis: Scripted;

	/** host:port, for errors a user can act on (never the password). */
	readonly where: string;

	constructor(
		connection: RedisOptions | string,
		private readonly prefix = 'messaging-bot',
		private readonly now: () => number = () => Date.now(),
	) {
		const redis = (
			typeof connection === 'string'
				? new Redis(connection, { lazyConnect: true, maxRetriesPerRequest: 3 })
				: new Redis({ lazyConnect: true, maxRetriesPerRequest: 3, ...connection })
		) as Scripted;
		redis.defineCommand('mbClaim', { numberOfKeys: 1, lua: SCRIPTS.claim });
		redis.defineCommand('mbWrite', { numberOfKeys: 1, lua: SCRIPTS.write });
		redis.defineCommand('mbRemove', { numberOfKeys: 2, lua: SCRIPTS.remove });
		// Errors surface on the commands that fail; an unhandled 'error' event would crash n8n.
		redis.on('error', () => undefined);
		this.redis = redis;
		this.where = `${redis.options.host ?? 'localhost'}:${redis.options.port ?? 6379}`;
	}

	/** Runs one command; a failure says which Redis and what it answered. */
	private async run<T>(command: () => Promise<T>): Promise<T> {
		let failure: Error;
		try {
			return await command();
		} catch (error) {
			failure = error as Error;
		}
		throw new StateStoreError(
			`The Redis state store at ${this.where} failed: ${failure.message}. Check the Messaging Bot Redis State Store credential and that Redis is running.`,
			{ cause: failure },
		);
	}

	/** Keys hash-tagged by namespace, so one namespace stays in one slot of a cluster. */
	private key(kind: string, namespace: string, id?: string): string {
		return `${this.prefix}:{${namespace}}:${kind}${id === undefined ? '' : `:${id}`}`;
	}

	async claim(namespace: string, id: string, ttlMs: number): Promise<boolean> {
		const now = this.now();
		const ttl = Math.max(1, Math.ceil(ttlMs));
		return (
			(await this.run(() =>
				this.redis.mbClaim(this.key('claim', namespace, id), now, now + ttl, ttl),
			)) === 1
		);
	}

	async release(namespace: string, id: string): Promise<void> {
		await this.run(() => this.redis.del(this.key('claim', namespace, id)));
	}

	async read(namespace: string, key: string): Promise<Versioned | undefined> {
		const [value, version] = await this.run(() =>
			this.redis.hmget(this.key('record', namespace, key), 'value', 'version'),
		);
		return value === null || version === null ? undefined : { value, version: Number(version) };
	}

	async write(
		namespace: string,
		key: string,
		value: string,
		expectedVersion: number,
	): Promise<number | null> {
		const version = await this.run(() =>
			this.redis.mbWrite(this.key('record', namespace, key), value, expectedVersion),
		);
		return version < 0 ? null : version;
	}

	async remove(namespace: string, key: string, expectedVersion: number): Promise<boolean> {
		const removed = await this.run(() =>
			this.redis.mbRemove(
				this.key('record', namespace, key),
				this.key('due', namespace),
				expectedVersion,
				key,
			),
		);
		return removed === 1;
	}

	async setDue(namespace: string, key: string, dueAt: number | null): Promise<void> {
		if (dueAt === null) await this.run(() => this.redis.zrem(this.key('due', namespace), key));
		else await this.run(() => this.redis.zadd(this.key('due', namespace), dueAt, key));
	}

	async due(namespace: string, now: number, limit: number): Promise<string[]> {
		// Sorted by due time, then by key for equal times (Redis orders equal scores by member).
		return await this.run(() =>
			this.redis.zrangebyscore(this.key('due', namespace), '-inf', now, 'LIMIT', 0, limit),
		);
	}

	async close(): Promise<void> {
		if (this.redis.status !== 'end') await this.redis.quit().catch(() => this.redis.disconnect());
	}
}

/** The fields of n8n's own Redis credential (the one its Redis node and queue mode use). */
export type RedisCredential = {
	host?: string;
	port?: number;
	user?: string;
	password?: string;
	database?: number;
	ssl?: boolean;
	disableTlsVerification?: boolean;
};

export function redisOptions(c: RedisCredential): RedisOptions {
	return {
		host: c.host || 'localhost',
		port: Number(c.port) || 6379,
		username: c.user || undefined,
		password: c.password || undefined,
		db: Number(c.database) || 0,
		tls: c.ssl ? { rejectUnauthorized: !c.disableTlsVerification } : undefined,
	};
}

const open = new Map<string, RedisStore>();

/** One connection per Redis for the whole process: every execution shares it. */
export function sharedRedisStore(c: RedisCredential): RedisStore {
	const options = redisOptions(c);
	const id = JSON.stringify(options);
	let store = open.get(id);
	if (!store) {
		store = new RedisStore(options);
		open.set(id, store);
	}
	return store;
}

export async function closeSharedRedisStores(): Promise<void> {
	for (const store of open.values()) await store.close();
	open.clear();
}

/** Connects once and sends PING: the credential test. Resolves to an error message, or null. */
export async function pingRedis(c: RedisCredential): Promise<string | null> {
	const redis = new Redis({
		...redisOptions(c),
		lazyConnect: true,
		connectTimeout: 5_000,
		maxRetriesPerRequest: 0,
		retryStrategy: () => null,
	});
	// The socket's own error (refused, unknown host, TLS) says more than the rejected connect.
	let socketError: Error | undefined;
	redis.on('error', (error: Error) => (socketError ??= error));
	try {
		await redis.connect();
		await redis.ping();
		return null;
	} catch (error) {
		return (socketError ?? (error as Error)).message;
	} finally {
		redis.disconnect();
	}
}
