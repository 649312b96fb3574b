/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { compileScenario, type CompiledScenario } from '../runtime/scenarios';
import { definitionReads } from '../runtime/scenarios/engine/versions/pinned';
import { CLIENTS, order } from './order-traffic';
import { alternate, CONCURRENCY, handleOn, overheadRow, seedFile } from './overhead';
import { table } from './lib';

/**
 * What finishing a conversation on its version costs: the same conversations, started on v1,
 * stepped by an engine whose live version is v2 (Finish on Their Version: every message on v1's
 * definition, read from the store once) against an engine whose live version is v1 (no pinning),
 * in the same run, alternately, best of ROUNDS each, each run on a copy of the same SQLite file.
 */
const ROUNDS = Number(process.env.BENCH_PIN_ROUNDS ?? 5);
const MESSAGES = Number(process.env.BENCH_PIN_MESSAGES ?? 10_000);
const out = (line = '') => process.stdout.write(`${line}\n`);

/** One run, with the v1 definitions it read from the store. */
async function run(file: string, live: CompiledScenario) {
	const reads = definitionReads.count;
	const result = await handleOn(file, live, MESSAGES);
	return { ...result, reads: definitionReads.count - reads };
}

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
			`Finish on Their Version: ${MESSAGES.toLocaleString('en')} messages of ${CLIENTS.toLocaleString('en')} conversations started on v1, SQLite, ${CONCURRENCY} in flight, best of ${ROUNDS} alternate runs each (by CPU: this process's CPU time per message, least of the runs; each run a new store connection: a new process as far as the cache goes):`,
		);
		const labels = { off: 'live v1 (not pinned)', on: 'live v2, pinned to v1', short: 'pinned' };
		out(
			table([
				{
					...overheadRow(labels, off, on),
					'v1 definition reads per run': on.map((r) => r.reads).join(', '),
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
