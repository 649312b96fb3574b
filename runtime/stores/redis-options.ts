import { Redis, type RedisOptions } from 'ioredis';

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
