import { Redis } from 'ioredis';

/** Deletes every key under `<prefix>:` in the machine's Redis database 0 (n8n's queue and cache). */
export async function dropKeys(prefixes: readonly string[]): Promise<void> {
	const redis = new Redis({ host: '127.0.0.1', port: 6379 });
	try {
		for (const prefix of new Set(prefixes)) {
			for await (const keys of redis.scanStream({ match: `${prefix}:*`, count: 500 })) {
				const found = keys as string[];
				if (found.length > 0) await redis.unlink(...found);
			}
		}
	} finally {
		await redis.quit();
	}
}
