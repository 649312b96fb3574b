import type { RedisOptions } from 'ioredis';

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
