/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { compileScenario } from '../runtime/scenarios';
import { definitionReads } from '../runtime/scenarios/engine/versions/pinned';
import { CLIENTS, order } from './order-traffic';
import { CONCURRENCY, seedFile, sideOn } from './overhead';
import { interleaved, overheadRow, type ChunkedSide } from './overhead-verdict';
import { table } from './lib';

/**
 * What finishing a conversation on its version costs: the same conversations, started on v1,
 * stepped by an engine whose live version is v2 (Finish on Their Version: every message on v1's
 * definition, read from the store once) against an engine whose live version is v1 (no pinning),
 * in the same run, ROUNDS rounds of both sides fed in turns by chunks, each side on a copy of the
 * same SQLite file (overhead-verdict.ts: the verdict and why).
 */
const ROUNDS = Number(process.env.BENCH_PIN_ROUNDS ?? 32);
const MESSAGES = Number(process.env.BENCH_PIN_MESSAGES ?? 8_000);
const CHUNKS = Number(process.env.BENCH_PIN_CHUNKS ?? 32);
const out = (line = '') => process.stdout.write(`${line}\n`);

/** A side whose v1 definition reads (from the store) are pushed to `reads` when it closes. */
function counted(side: ChunkedSide, reads: number[]): ChunkedSide {
	const before = definitionReads.count;
	return {
		run: async (k) => await side.run(k),
		async close() {
			await side.close();
			reads.push(definitionReads.count - before);
		},
	};
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
		// The live-v1 side reads no definition: the reads while the pinned side is open are its own.
		const reads: number[] = [];
		const [off, on] = await interleaved(ROUNDS, CHUNKS, async (side, round) => {
			const file = path.join(dir, `r${round}-${side}.sqlite`);
			return side === 0
				? sideOn(seed, file, order, MESSAGES, CHUNKS)
				: counted(sideOn(seed, file, v2, MESSAGES, CHUNKS), reads);
		});
		out(
			`Finish on Their Version: ${MESSAGES.toLocaleString('en')} messages of ${CLIENTS.toLocaleString('en')} conversations started on v1, SQLite, ${CONCURRENCY} in flight, ${ROUNDS} rounds of both sides fed in turns by chunks of ${Math.ceil(MESSAGES / CHUNKS)} messages (ABBA by pair), each round new store connections (a new process as far as the cache goes). Verdict: the median over pairs of the pair's CPU ratio (this process's CPU time per message, not pinned over pinned; the bench is CPU-bound, so it is the throughput ratio, and other processes' load moves it little), said within 5 % only when its 95 % interval is:`,
		);
		const labels = { off: 'live v1 (not pinned)', on: 'live v2, pinned to v1', short: 'pinned' };
		out(
			table([
				{
					...overheadRow(labels, off, on),
					'v1 definition reads per round': readsPerRun(reads),
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
