/* eslint-disable @n8n/community-nodes/no-restricted-imports -- benchmark tooling, never loaded by n8n */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * How the overhead benches (pinning, split, the analytics counters) measure one side against the
 * other in the same run: many short rounds in ABBA order, a full garbage collection before each
 * run outside its time, and a verdict from the median of the rounds' CPU ratios with its 95 %
 * interval, said only when the interval shows it.
 */
export interface RunResult {
	perSecond: number;
	/** This process's CPU time per message. */
	cpuUs: number;
}

// A full collection before each run, outside its time: the garbage one side left is not collected
// in the other's time (the flag, set at run time, is what `node --expose-gc` sets at start).
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/**
 * `rounds` rounds of both sides in ABBA order (off, on, on, off, …): a slow drift of the machine
 * or of the process warming up favours neither. `run(side, round)` makes one run of a side.
 */
export async function abbaRounds<R extends RunResult>(
	rounds: number,
	run: (side: 0 | 1, round: number) => Promise<R>,
): Promise<[R[], R[]]> {
	const results: [R[], R[]] = [[], []];
	for (let round = 0; round < rounds; round++) {
		for (const side of round % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const)) {
			collectGarbage();
			results[side].push(await run(side, round));
		}
	}
	return results;
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

const best = (runs: RunResult[]) => Math.max(...runs.map((r) => r.perSecond));
const interval = ([low, high]: [number, number]) => `${low.toFixed(3)} to ${high.toFixed(3)}`;

/**
 * The table's row. The verdict is the median over rounds of each round's CPU ratio (off's CPU
 * time per message over on's), this process's CPU: other processes' load, which stretches wall
 * time, moves it little, and a load lasting a round or two moves the median of the rounds little
 * too. Within `limit` (0.05: 5 %) is said only when the median's 95 % interval is at or above
 * 1 - limit, NO only when it is below: a run that cannot tell says so. `short` names the `on`
 * side in the ratios. The wall ratio (on's messages/s over off's) is printed beside it.
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
	const pct = Math.round(limit * 100);
	return {
		[`CPU µs/message, ${labels.off} / ${labels.on}`]: `${cpu(off)} / ${cpu(on)}`,
		[`verdict: ${labels.short} / not, by CPU, median of ${rounds.length} rounds`]:
			median(byCpu).toFixed(3),
		'its 95 % interval': interval([low, high]),
		[`within ${pct} %`]:
			low >= line ? 'yes' : high < line ? 'NO' : `not shown (${line.toFixed(2)} inside)`,
		'by wall, median of rounds': median(byWall).toFixed(3),
		'wall 95 % interval': interval(medianInterval(byWall)),
		[`best messages/s, ${labels.off} / ${labels.on}`]: `${Math.round(best(off)).toLocaleString('en')} / ${Math.round(best(on)).toLocaleString('en')}`,
	};
}
