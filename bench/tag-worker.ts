/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark tooling: one worker process of the two-worker run, never loaded by n8n */
import { closeBudgets, MessagingBotClient } from '../runtime/api';
import { createUndiciTransport } from '../runtime/api/undici-transport';
import { clock } from './lib';

/**
 * One of two worker processes updating tags on one key, `callers` at a time, after the go
 * signal; with a Redis URL the key's budget is shared through it. Prints when it finished.
 */
async function main(): Promise<void> {
	const [baseUrl, apiKey, limit, windowMs, callers, redisUrl, ids] = process.argv.slice(2);
	const redis = redisUrl === '-' ? undefined : new URL(redisUrl);
	const transport = createUndiciTransport({ apiKey, connections: 32 });
	const client = new MessagingBotClient({
		baseUrl,
		transport,
		clock,
		apiKey,
		rateLimit: { limit: Number(limit), windowMs: Number(windowMs) },
		sharedThrough: redis && {
			host: redis.hostname,
			port: Number(redis.port),
			db: Number(redis.pathname.slice(1) || 0),
		},
	});
	const queue = ids.split(',');
	process.stdout.write('ready\n');
	await new Promise((resolve) => process.stdin.once('data', resolve));
	process.stdin.pause();
	await Promise.all(
		Array.from({ length: Number(callers) }, async () => {
			for (let id = queue.shift(); id; id = queue.shift())
				await client.updateTags(id, { add: ['customer'] });
		}),
	);
	process.stdout.write(JSON.stringify({ finished: Date.now(), requests: client.requestCount }));
	await transport.close();
	await closeBudgets();
}

void main();
