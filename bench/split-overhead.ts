/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { CLIENTS, order } from './order-traffic';
import { withPassThrough, withSplit } from './split-scenario';
import { CONCURRENCY, seedFile, sideOn } from './overhead';
import { interleaved, overheadRow } from './overhead-verdict';
import { table } from './lib';

/**
 * What a split step costs: the order-status example against the same scenario with a 50/50 split
 * on the way back from "status" to "ask_number" (both variants lead there, the goal "status"), so
 * every other message of the bench's loop goes through the split: the client's variant kept on
 * the conversation, read back, and counted. Then the split against a plain step in its place, to
 * tell the split's own cost from what any state more on the path costs. Same run, ROUNDS rounds of both sides fed in turns by
 * chunks, each side on a copy of its SQLite file (overhead-verdict.ts: the verdict and why).
 */
const ROUNDS = Number(process.env.BENCH_SPLIT_ROUNDS ?? 32);
const MESSAGES = Number(process.env.BENCH_SPLIT_MESSAGES ?? 8_000);
const CHUNKS = Number(process.env.BENCH_SPLIT_CHUNKS ?? 32);
const out = (line = '') => process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
	const dir = mkdtempSync(path.join(tmpdir(), 'mb-split-bench-'));
	try {
		const scenarios = {
			plain: order,
			pass: withPassThrough(order.document),
			split: withSplit(order.document),
		};
		const seeds = { plain: '', pass: '', split: '' };
		for (const name of ['plain', 'pass', 'split'] as const) {
			seeds[name] = path.join(dir, `${name}.sqlite`);
			await seedFile(seeds[name], scenarios[name]);
		}
		out(
			`Split step: ${MESSAGES.toLocaleString('en')} messages of ${CLIENTS.toLocaleString('en')} conversations, every other one through a 50/50 split, SQLite, ${CONCURRENCY} in flight, ${ROUNDS} rounds of both sides fed in turns by chunks of ${Math.ceil(MESSAGES / CHUNKS)} messages (ABBA by pair). Verdict: the median over pairs of the pair's CPU ratio (this process's CPU time per message, the compared side's over the split's; the bench is CPU-bound, so it is the throughput ratio, and other processes' load moves it little), said within 5 % only when its 95 % interval is. Against the example as it is (the target), and against the example with a plain step in the split's place (a choice with one way on: what the split costs beyond being one more state on the path):`,
		);
		const rows = [];
		for (const base of ['plain', 'pass'] as const) {
			const [off, on] = await interleaved(ROUNDS, CHUNKS, async (side, round) => {
				const file = path.join(dir, `${base}-r${round}-${side}.sqlite`);
				const name = side === 0 ? base : 'split';
				return sideOn(seeds[name], file, scenarios[name], MESSAGES, CHUNKS);
			});
			const baseline = base === 'plain' ? 'no split' : 'a plain step';
			const labels = { off: baseline, on: 'the split', short: 'split' };
			rows.push({ against: baseline, ...renameKeys(overheadRow(labels, off, on)) });
		}
		out(table(rows));
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/** The row's columns named alike for both comparisons (their labels differ). */
function renameKeys(row: Record<string, string>): Record<string, string> {
	return Object.fromEntries(
		Object.entries(row).map(([k, v]) => [k.replace(/no split|a plain step/g, 'A'), v]),
	);
}

main().catch((error: unknown) => {
	process.stderr.write(`${String(error)}\n`);
	process.exitCode = 1;
});
