/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { compileScenario, ScenarioEngine, type CompiledScenario } from '../runtime/scenarios';
import { definitionReads } from '../runtime/scenarios/engine/versions/pinned';
import { SqliteStore } from '../runtime/stores/sqlite';
import { HistoryApi } from './history-api';
import { CLIENTS, clients, messages, order } from './order-traffic';
import { table } from './lib';

/**
 * What finishing a conversation on its version costs: the same conversations, started on v1,
 * stepped by an engine whose live version is v2 (Finish on Their Version: every message on v1's
 * definition, read from the store once) against an engine whose live version is v1 (no pinning),
 * in the same run, alternately, best of ROUNDS each, each run on a copy of the same SQLite file.
 */
const ROUNDS = Number(process.env.BENCH_PIN_ROUNDS ?? 5);
const MESSAGES = Number(process.env.BENCH_PIN_MESSAGES ?? 10_000);
const CONCURRENCY = 50;
const START = 3 * CLIENTS;
const out = (line = '') => process.stdout.write(`${line}\n`);

async function run(
	file: string,
	live: CompiledScenario,
): Promise<{ perSecond: number; cpuUs: number; reads: number }> {
	const store = new SqliteStore(file);
	const engine = new ScenarioEngine({
		scenarios: [live],
		store,
		api: new HistoryApi(clients),
		clock: { now: () => Date.now() },
	});
	const events = messages(START + MESSAGES, 'm').slice(START);
	const reads = definitionReads.count;
	let next = 0;
	const cpu = process.cpuUsage();
	const started = performance.now();
	await Promise.all(
		Array.from({ length: CONCURRENCY }, async () => {
			while (next < events.length) await engine.handle(events[next++]);
		}),
	);
	const perSecond = events.length / ((performance.now() - started) / 1000);
	const used = process.cpuUsage(cpu);
	await store.close();
	const cpuUs = (used.user + used.system) / events.length;
	return { perSecond, cpuUs, reads: definitionReads.count - reads };
}

async function main(): Promise<void> {
	const dir = mkdtempSync(path.join(tmpdir(), 'mb-pin-bench-'));
	try {
		// Every client's conversation started on v1 (the first three messages), then the file kept.
		const seed = path.join(dir, 'seed.sqlite');
		const warm = new SqliteStore(seed);
		const engine = new ScenarioEngine({
			scenarios: [order],
			store: warm,
			api: new HistoryApi(clients),
			clock: { now: () => Date.now() },
		});
		for (const event of messages(START, 'm')) await engine.handle(event);
		await warm.close();
		const v2 = compileScenario({ ...order.document, version: order.version + 1 });
		const off: Array<{ perSecond: number; cpuUs: number }> = [];
		const on: typeof off = [];
		const reads: number[] = [];
		for (let round = 0; round < ROUNDS; round++) {
			// Each side goes first in every other round: the process warming up favours neither.
			const sides = [
				[order, off],
				[v2, on],
			] as const;
			for (const [live, into] of round % 2 === 0 ? sides : [...sides].reverse()) {
				const file = path.join(dir, `r${round}-${live.version}.sqlite`);
				copyFileSync(seed, file);
				const result = await run(file, live);
				into.push(result);
				if (live === v2) reads.push(result.reads);
			}
		}
		const best = (runs: typeof off) => Math.max(...runs.map((r) => r.perSecond));
		const leastCpu = (runs: typeof off) => Math.min(...runs.map((r) => r.cpuUs));
		const ratio = best(on) / best(off);
		const cpuRatio = leastCpu(off) / leastCpu(on);
		out(
			`Finish on Their Version: ${MESSAGES.toLocaleString('en')} messages of ${CLIENTS.toLocaleString('en')} conversations started on v1, SQLite, ${CONCURRENCY} in flight, best of ${ROUNDS} alternate runs each (by CPU: this process's CPU time per message, least of the runs; each run a new store connection: a new process as far as the cache goes):`,
		);
		out(
			table([
				{
					'live v1 (not pinned), messages/s': Math.round(best(off)).toLocaleString('en'),
					'live v2, pinned to v1, messages/s': Math.round(best(on)).toLocaleString('en'),
					'pinned / not': ratio.toFixed(3),
					'CPU µs/message not / pinned': `${leastCpu(off).toFixed(0)} / ${leastCpu(on).toFixed(0)}`,
					'by CPU, pinned / not': cpuRatio.toFixed(3),
					'within 5 %':
						ratio >= 0.95 && cpuRatio >= 0.95
							? 'yes'
							: ratio >= 0.95 || cpuRatio >= 0.95
								? 'one of two'
								: 'NO',
					'v1 definition reads per run': reads.join(', '),
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
