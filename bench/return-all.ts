/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { startEmulator } from '../test/emulator';
import { admin, benchClient, fmt, table } from './lib';

/**
 * "Return All" over 10,000 clients: pages of 1,000 (the documented maximum, what the node uses)
 * against pages of 50 (the service's default). The window is scaled to WINDOW_MS so the run
 * takes seconds; the projected time at the real 100 requests a minute is printed too.
 */
const CLIENTS = 10_000;
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 1_000);

async function main(): Promise<void> {
	const e = await startEmulator({ rateLimit: 100, rateWindowMs: WINDOW_MS, seed: false });
	await admin(e, 'POST', '/clients', { count: CLIENTS });
	const rows = [];
	const results: Record<number, { requests: number; ms: number }> = {};
	for (const pageSize of [1_000, 50]) {
		const client = await benchClient(e, 100, WINDOW_MS);
		const started = performance.now();
		let n = 0;
		for await (const client_ of client.iterateClients({}, { pageSize })) if (client_.id) n++;
		const ms = performance.now() - started;
		if (n !== CLIENTS) throw new Error(`expected ${CLIENTS} clients, got ${n}`);
		results[pageSize] = { requests: client.requestCount, ms };
		// At 100 per 60 s, request k (0-based) cannot leave before floor(k / 100) minutes.
		const projected = Math.floor((client.requestCount - 1) / 100) * 60_000;
		rows.push({
			'page size': pageSize,
			requests: client.requestCount,
			[`wall time (window ${WINDOW_MS} ms)`]: fmt(ms),
			'waiting forced at 100/min': fmt(projected),
		});
		await client.close();
	}
	await e.close();
	process.stdout.write(`Return All over ${CLIENTS} clients\n${table(rows)}\n`);
	process.stdout.write(
		`ratio requests (50 / 1000): ${(results[50].requests / results[1_000].requests).toFixed(1)}x; ratio wall time: ${(results[50].ms / results[1_000].ms).toFixed(1)}x\n`,
	);
}

void main();
