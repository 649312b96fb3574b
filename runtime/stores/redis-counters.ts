import type { Redis } from 'ioredis';

import type { CounterHash } from './types';

/**
 * A namespace's counter hashes whose names start with `prefix`, still within their deadline at
 * `now`: found through the namespace's index (scored by deadline), then read in one pipeline.
 */
export async function readCounters(
	redis: Redis,
	index: string,
	prefix: string,
	now: number,
	hashKey: (name: string) => string,
): Promise<CounterHash[]> {
	const names = (await redis.zrangebyscore(index, `(${now}`, '+inf'))
		.filter((name) => name.startsWith(prefix))
		.sort();
	if (names.length === 0) return [];
	const pipeline = redis.pipeline();
	for (const name of names) pipeline.hgetall(hashKey(name));
	const replies = await pipeline.exec();
	return names.map((key, i) => {
		const fields = (replies?.[i]?.[1] ?? {}) as Record<string, string>;
		return {
			key,
			fields: Object.fromEntries(Object.entries(fields).map(([f, n]) => [f, Number(n)])),
		};
	});
}
