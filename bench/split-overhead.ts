/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { CLIENTS, order } from './order-traffic';
import { withSplit } from './split-scenario';
import { CONCURRENCY, seedFile, sideOn } from './overhead';
import { interleaved, overheadRow } from './overhead-verdict';
import { table } from './lib';

/**
 * What a split step costs: the order-status example against the same scenario with a 50/50 split
 * on the way back from "status" to "ask_number" (both variants lead there, the goal "status"), so
 * every other message of the bench's loop goes through the split: the client's variant kept on
 * the conversation, read back, and counted. Same run, ROUNDS rounds of both sides fed in turns by
 * chunks, each side on a copy of its SQLite file (overhead-verdict.ts: the verdict and why).
 */
const ROUNDS = Number(process.env.BENCH_SPLIT_ROUNDS ?? 8);
const MESSAGES = Number(process.env.BENCH_SPLIT_MESSAGES ?? 8_000);
const CHUNKS = Number(process.env.BENCH_SPLIT_CHUNKS ?? 32);
const out = (line = '') => process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
	const dir = mkdtempSync(path.join(tmpdir(), 'mb-split-bench-'));
	try {
		const split = withSplit(order.document);
		const [plain, splitSeed] = [path.join(dir, 'plain.sqlite'), path.join(dir, 'split.sqlite')];
		await seedFile(plain, order);
		await seedFile(splitSeed, split);
		const [off, on] = await interleaved(ROUNDS, CHUNKS, async (side, round) => {
			const file = path.join(dir, `r${round}-${side}.sqlite`);
			return side === 0
				? sideOn(plain, file, order, MESSAGES, CHUNKS)
				: sideOn(splitSeed, file, split, MESSAGES, CHUNKS);
		});
		out(
			`Split step: ${MESSAGES.toLocaleString('en')} messages of ${CLIENTS.toLocaleString('en')} conversations, every other one through a 50/50 split, SQLite, ${CONCURRENCY} in flight, ${ROUNDS} rounds of both sides fed in turns by chunks of ${Math.ceil(MESSAGES / CHUNKS)} messages (ABBA by pair). Verdict: the median over pairs of the pair's CPU ratio (this process's CPU time per message, no split over split; the bench is CPU-bound, so it is the throughput ratio, and other processes' load moves it little), said within 5 % only when its 95 % interval is:`,
		);
		const labels = { off: 'no split', on: 'with the split', short: 'split' };
		out(table([overheadRow(labels, off, on)]));
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

main().catch((error: unknown) => {
	process.stderr.write(`${String(error)}\n`);
	process.exitCode = 1;
});
