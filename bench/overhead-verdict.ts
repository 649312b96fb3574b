/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import type { MessageReceived } from '../runtime/scenarios';

/**
 * How the overhead benches (pinning, split, the analytics counters) measure one side against the
 * other in the same run: both sides open at once and fed in turns, chunk by chunk, and a verdict
 * from the median of the pairs' CPU ratios with its 95 % interval, said only when the interval
 * shows it. Whole runs in turns (a run of each side, then the next round) were tried first: the
 * machine's speed drifts over seconds, and two runs of the same side differed by 10 %.
 */
export interface RunResult {
	perSecond: number;
	/** This process's CPU time per message. */
	cpuUs: number;
	/** Its main thread's alone (the rest: V8's collector and compiler threads, libuv's pool). */
	mainUs: number;
}

// A full collection before each round, outside its time, and a young one closing each chunk inside
// it (the flag, set at run time, is what `node --expose-gc` sets at start).
setFlagsFromString('--expose-gc');
export const collectGarbage = runInNewContext('gc') as (options?: { type: 'minor' }) => void;

/** One side of a comparison, open (its store, its engine) and fed a chunk of messages at a time. */
export interface ChunkedSide {
	/** Handles chunk `k`; answers how many messages it handled. */
	run(k: number): Promise<number>;
	close(): Promise<void>;
}

/** A side that feeds `events` to `handle` in `chunks` equal chunks, `close` at its end. */
export function chunkedSide(
	events: readonly MessageReceived[],
	chunks: number,
	handle: (chunk: MessageReceived[]) => Promise<unknown>,
	close: () => Promise<void>,
): ChunkedSide {
	const size = Math.ceil(events.length / chunks);
	return {
		async run(k) {
			const chunk = events.slice(k * size, (k + 1) * size);
			await handle(chunk);
			return chunk.length;
		},
		close,
	};
}

/**
 * `rounds` rounds, each opening both sides afresh and feeding them in turns, a chunk of messages
 * to one and the same chunk's turn to the other, in ABBA order by pair: a drift of the machine
 * (another tenant, the CPU's clock) lasting longer than a chunk (tens of ms) falls on both sides
 * of a pair alike. Each chunk's time is its own CPU time, closed by a young-generation collection
 * inside it, so the garbage a chunk made is collected in its time and not in the other side's
 * next one. Each pair is one ratio of the verdict (overheadRow).
 */
export async function interleaved(
	rounds: number,
	chunks: number,
	open: (side: 0 | 1, round: number) => Promise<ChunkedSide>,
): Promise<[RunResult[], RunResult[]]> {
	const results: [RunResult[], RunResult[]] = [[], []];
	for (let round = 0; round < rounds; round++) {
		const sides = [await open(0, round), await open(1, round)] as const;
		try {
			collectGarbage();
			for (let k = 0; k < chunks; k++) {
				for (const side of turnOrder(round, k))
					results[side].push(await timedChunk(async () => await sides[side].run(k)));
			}
		} finally {
			for (const side of sides) await side.close();
		}
	}
	return results;
}

/** Which side goes first with chunk `k` of `round`: ABBA by pair. */
export const turnOrder = (round: number, k: number) =>
	(round + k) % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const);

/** A chunk's run: its CPU time and wall rate, a young collection closing it inside its time. */
export async function timedChunk(run: () => Promise<number>): Promise<RunResult> {
	const cpu = process.cpuUsage();
	const main = process.threadCpuUsage();
	const started = performance.now();
	const handled = await run();
	collectGarbage({ type: 'minor' });
	const used = process.cpuUsage(cpu);
	const usedMain = process.threadCpuUsage(main);
	const seconds = (performance.now() - started) / 1000;
	return {
		perSecond: handled / seconds,
		cpuUs: (used.user + used.system) / handled,
		mainUs: (usedMain.user + usedMain.system) / handled,
	};
}

const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * A 95 % interval for the median of `values`, from order statistics (no assumption about how the
 * values spread): the k-th value from either end, k the largest with P(Binomial(n, ½) < k) at
 * most 2.5 %. Under 6 values no such k: the whole range.
 */
function medianInterval(values: number[]): [number, number] {
	const sorted = [...values].sort((a, b) => a - b);
	const n = sorted.length;
	let [k, below, term] = [0, 0, 0.5 ** n]; // term: P(X = k)
	while (2 * (below + term) <= 0.05)
		[below, k, term] = [below + term, k + 1, (term * (n - k)) / (k + 1)];
	return k === 0 ? [sorted[0], sorted[n - 1]] : [sorted[k - 1], sorted[n - k]];
}

const sum = (runs: RunResult[]) => runs.reduce((total, r) => total + r.cpuUs, 0);
const best = (runs: RunResult[]) => Math.max(...runs.map((r) => r.perSecond));
const interval = ([low, high]: [number, number]) => `${low.toFixed(3)} to ${high.toFixed(3)}`;

/**
 * The table's row. The verdict is the median over pairs of each pair's CPU ratio (off's CPU time
 * per message over on's), this process's CPU: other processes' load, which stretches wall time,
 * moves it little, and a load lasting a pair or two moves the median little too. Within `limit`
 * (0.05: 5 %) is said only when the median's 95 % interval is at or above 1 - limit, NO only when
 * it is below: a run that cannot tell says so. `short` names the `on` side in the ratios. Beside
 * it: the ratio of all pairs' CPU together, and the wall ratio (on's messages/s over off's).
 */
export function overheadRow(
	labels: { off: string; on: string; short: string },
	off: RunResult[],
	on: RunResult[],
	limit = 0.05,
): Record<string, string> {
	const rounds = off.map((_, i) => i);
	const byCpu = rounds.map((i) => off[i].cpuUs / on[i].cpuUs);
	const byWall = rounds.map((i) => on[i].perSecond / off[i].perSecond);
	const [low, high] = medianInterval(byCpu);
	const line = 1 - limit;
	const cpu = (runs: RunResult[]) => median(runs.map((r) => r.cpuUs)).toFixed(0);
	const main = (runs: RunResult[]) => median(runs.map((r) => r.mainUs)).toFixed(0);
	const byMain = median(rounds.map((i) => off[i].mainUs / on[i].mainUs));
	const pct = Math.round(limit * 100);
	return {
		[`CPU µs/message, ${labels.off} / ${labels.on}`]: `${cpu(off)} / ${cpu(on)}`,
		[`verdict: ${labels.short} / not, by CPU, median of ${rounds.length} pairs`]:
			median(byCpu).toFixed(3),
		'its 95 % interval': interval([low, high]),
		[`within ${pct} %`]:
			low >= line ? 'yes' : high < line ? 'NO' : `not shown (${line.toFixed(2)} inside)`,
		'CPU of all pairs, off / on': (sum(off) / sum(on)).toFixed(3),
		[`main thread µs/message, ${labels.off} / ${labels.on} (median ratio)`]: `${main(off)} / ${main(on)} (${byMain.toFixed(3)})`,
		'by wall, median of pairs': median(byWall).toFixed(3),
		'wall 95 % interval': interval(medianInterval(byWall)),
		[`best messages/s, ${labels.off} / ${labels.on}`]: `${Math.round(best(off)).toLocaleString('en')} / ${Math.round(best(on)).toLocaleString('en')}`,
	};
}
