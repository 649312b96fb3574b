/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { startEmulator } from '../test/emulator';
import { admin, benchClient, fmt, table } from './lib';

/**
 * 1,000 tag updates against the optimum the limit allows: 100 per window, so the last batch
 * cannot start before 9 windows have passed. Sequential (as the node runs items) and with 10
 * concurrent callers; the window is scaled to WINDOW_MS. A ratio of 1.00 is the best possible.
 */
const UPDATES = 1_000;
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 1_000);

async function main(): Promise<void> {
	const e = await startEmulator({ rateLimit: 100, rateWindowMs: WINDOW_MS, seed: false });
	const optimum = Math.floor((UPDATES - 1) / 100) * WINDOW_MS;
	const rows = [];
	for (const callers of [1, 10]) {
		await admin(e, 'POST', '/reset');
		const { ids: fresh } = (await admin(e, 'POST', '/clients', { count: UPDATES })) as {
			ids: string[];
		};
		const client = await benchClient(e, 100, WINDOW_MS);
		const queue = [...fresh];
		const started = performance.now();
		await Promise.all(
			Array.from({ length: callers }, async () => {
				for (let id = queue.shift(); id; id = queue.shift())
					await client.updateTags(id, { add: ['customer'] });
			}),
		);
		const ms = performance.now() - started;
		const log = (await admin(e, 'GET', '/requests')) as Array<{ status: number }>;
		rows.push({
			callers,
			requests: client.requestCount,
			'429s': log.filter((r) => r.status === 429).length,
			'wall time': fmt(ms),
			optimum: fmt(optimum),
			'ratio to optimum': (ms / optimum).toFixed(2),
		});
		await client.close();
	}
	await e.close();
	process.stdout.write(
		`${UPDATES} tag updates at 100 requests per ${WINDOW_MS} ms\n${table(rows)}\n`,
	);
}

void main();
