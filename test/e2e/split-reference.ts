import { probabilityBBeatsA, wilsonReference } from '../helpers/beta-reference';

/**
 * A two-variant split test's figures computed apart from the package (docs/analytics.md's
 * "Which statistics, and why"): the Wilson interval, P(best) by the closed form for whole Beta
 * parameters, and the no-peeking sample written out with the normal quantiles from a table.
 */

/** z for 1 − 0.05 / 2 (two-sided 5 %, one comparison) and for a power of 80 %, from a table. */
const Z_975 = 1.959963984540054;
const Z_80 = 0.8416212335729143;
const DIFFERENCE = 0.05;
const FLOOR = 100;

export type VariantFigures = {
	variant: string;
	clients: number;
	goalReached: number;
	conversion: number;
	conversionLow: number;
	conversionHigh: number;
	probabilityBest: number;
	moreClientsNeeded: number;
	verdict: string;
	verdictReady: boolean;
	best: boolean;
};

/** Clients per variant for a two-proportion z-test to tell p from p + 5 points. */
function perVariant(p1: number): number {
	const p2 = p1 + DIFFERENCE <= 1 ? p1 + DIFFERENCE : p1 - DIFFERENCE;
	const m = (p1 + p2) / 2;
	const root = Z_975 * Math.sqrt(2 * m * (1 - m)) + Z_80 * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2));
	return Math.max(FLOOR, Math.ceil((root * root) / (DIFFERENCE * DIFFERENCE)));
}

/**
 * What Get Analytics must say of each variant, given [clients, goal reached] of the two, before
 * the sample is reached (the only case a run of a few dozen clients can see): the clients still
 * needed are counted by the shares seen so far (docs/analytics.md).
 */
export function splitReference(
	counts: Record<string, { clients: number; goalReached: number }>,
): VariantFigures[] {
	const [a, b] = Object.keys(counts).sort();
	const pair = (v: string): [number, number] => [counts[v].clients, counts[v].goalReached];
	const bBeatsA = probabilityBBeatsA(pair(a), pair(b));
	const clients = counts[a].clients + counts[b].clients;
	const needed = perVariant((counts[a].goalReached + counts[b].goalReached) / clients);
	// The shares seen so far stand for the weights: the variant furthest behind sets the count.
	const more = Math.ceil(
		Math.max(
			...[a, b].map((v) => Math.max(0, needed - counts[v].clients) / (counts[v].clients / clients)),
		),
	);
	if (more === 0) throw new Error('the reference covers a split before its sample is reached');
	const verdict = `not enough data yet (about ${more.toLocaleString('en-US')} more clients needed to tell a difference of 5 points)`;
	return [a, b].map((variant) => {
		const [n, goal] = pair(variant);
		const [low, high] = wilsonReference(goal, n);
		return {
			variant,
			clients: n,
			goalReached: goal,
			conversion: goal / n,
			conversionLow: low,
			conversionHigh: high,
			probabilityBest: variant === b ? bBeatsA : 1 - bBeatsA,
			moreClientsNeeded: more,
			verdict,
			verdictReady: false,
			best: false,
		};
	});
}
