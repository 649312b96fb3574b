/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { compileScenario, type CompiledScenario } from '../runtime/scenarios';
import { definitionReads } from '../runtime/scenarios/engine/versions/pinned';
import { CLIENTS, order } from './order-traffic';
import { alternate, CONCURRENCY, handleOn, seedFile } from './overhead';
import { overheadRow } from './overhead-verdict';
import { table } from './lib';

/**
 * What finishing a conversation on its version costs: the same conversations, started on v1,
 * stepped by an engine whose live version is v2 (Finish on Their Version: every message on v1's
 * definition, read from the store once) against an engine whose live version is v1 (no pinning),
 * in the same run, ROUNDS short rounds in ABBA order, each run on a copy of the same SQLite file
 * (overhead-verdict.ts: the verdict and why).
 */
const ROUNDS = Number(process.env.BENCH_PIN_ROUNDS ?? 64);
const MESSAGES = Number(process.env.BENCH_PIN_MESSAGES ?? 3_000);
const out = (line = '') => process.stdout.write(`${line}\n`);

/** One run, with the v1 definitions it read from the store. */
async function run(file: string, live: CompiledScenario) {
	const reads = definitionReads.count;
	const result = await handleOn(file, live, MESSAGES);
	return { ...result, reads: definitionReads.count - reads };
}

const readsPerRun = (reads: number[]) =>
	new Set(reads).size === 1 ? `${reads[0]} in each of ${reads.length}` : reads.join(', ');

async function main(): Promise<void> {
	const dir = mkdtempSync(path.join(tmpdir(), 'mb-pin-bench-'));
	try {
		// Every client's conversation started on v1 (the first three messages), then the file kept.
		const seed = path.join(dir, 'seed.sqlite');
		await seedFile(seed, order);
		const v2 = compileScenario({ ...order.document, version: order.version + 1 });
		const [off, on] = await alternate(dir, ROUNDS, [
			{ seed, run: async (file) => await run(file, order) },
			{ seed, run: async (file) => await run(file, v2) },
		]);
		out(
			`Finish on Their Version: ${MESSAGES.toLocaleString('en')} messages of ${CLIENTS.toLocaleString('en')} conversations started on v1, SQLite, ${CONCURRENCY} in flight, ${ROUNDS} rounds in ABBA order, each run a new store connection (a new process as far as the cache goes). Verdict: the median over rounds of the round's CPU ratio (this process's CPU time per message, not pinned over pinned; the bench is CPU-bound, so it is the throughput ratio, and other processes' load moves it little), said within 5 % only when its 95 % interval is:`,
		);
		const labels = { off: 'live v1 (not pinned)', on: 'live v2, pinned to v1', short: 'pinned' };
		out(
			table([
				{
					...overheadRow(labels, off, on),
					'v1 definition reads per run': readsPerRun(on.map((r) => r.reads)),
				},
			]),
		);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

main().catch((error: unknown) => {
	process.stderr.write(`${String(error)}\n`);
	process.exitCode = 1;
});
