/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { CLIENTS, order } from './order-traffic';
import { withSplit } from './split-scenario';
import { alternate, CONCURRENCY, handleOn, seedFile } from './overhead';
import { overheadRow } from './overhead-verdict';
import { table } from './lib';

/**
 * What a split step costs: the order-status example against the same scenario with a 50/50 split
 * on the way back from "status" to "ask_number" (both variants lead there, the goal "status"), so
 * every other message of the bench's loop goes through the split: the client's variant kept on
 * the conversation, read back, and counted. Same run, ROUNDS short rounds in ABBA order, each run
 * on a copy of its side's SQLite file (overhead-verdict.ts: the verdict and why).
 */
const ROUNDS = Number(process.env.BENCH_SPLIT_ROUNDS ?? 64);
const MESSAGES = Number(process.env.BENCH_SPLIT_MESSAGES ?? 3_000);
const out = (line = '') => process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
	const dir = mkdtempSync(path.join(tmpdir(), 'mb-split-bench-'));
	try {
		const split = withSplit(order.document);
		const [plain, splitSeed] = [path.join(dir, 'plain.sqlite'), path.join(dir, 'split.sqlite')];
		await seedFile(plain, order);
		await seedFile(splitSeed, split);
		const [off, on] = await alternate(dir, ROUNDS, [
			{ seed: plain, run: async (file) => await handleOn(file, order, MESSAGES) },
			{ seed: splitSeed, run: async (file) => await handleOn(file, split, MESSAGES) },
		]);
		out(
			`Split step: ${MESSAGES.toLocaleString('en')} messages of ${CLIENTS.toLocaleString('en')} conversations, every other one through a 50/50 split, SQLite, ${CONCURRENCY} in flight, ${ROUNDS} rounds in ABBA order. Verdict: the median over rounds of the round's CPU ratio (this process's CPU time per message, no split over split; the bench is CPU-bound, so it is the throughput ratio, and other processes' load moves it little), said within 5 % only when its 95 % interval is:`,
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
