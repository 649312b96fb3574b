import { betaCdf, betaDensity, lnBeta, normalQuantile, simpson } from './beta';

/**
 * A split test's verdict from its counts, pure and deterministic (the README's "Split tests" says
 * which statistics and why):
 * - each variant's conversion with its 95 % Wilson score interval;
 * - the probability that each variant is the best: Beta(1 + goals, 1 + clients − goals)
 *   posteriors, P(θᵢ > θⱼ for every j) integrated numerically (Simpson's rule over variant i's
 *   posterior), never sampled;
 * - the no-peeking rule: no verdict before every variant has the fixed sample that a
 *   two-proportion test needs to tell a difference of `differencePoints` (α = 5 % two-sided,
 *   Bonferroni-split over the comparisons with the best, power 80 %); until then "not enough data
 *   yet". Looking every day cannot make an early noise a winner: nothing is declared before that
 *   sample is reached. Then a variant is named best only with a probability of at least 95 %.
 */

export interface VariantCount {
	variant: string;
	clients: number;
	/** Clients that reached the goal. */
	goal: number;
	/** Its share of new clients (any unit; equal when absent). */
	weight?: number;
}

export interface VariantResult extends Required<Omit<VariantCount, 'weight'>> {
	/** goal / clients; null with no client. */
	conversion: number | null;
	/** The 95 % Wilson score interval; null with no client. */
	interval: { low: number; high: number } | null;
	probabilityBest: number;
}

export interface Verdict {
	/** Whether every variant has the sample the rule asks. */
	ready: boolean;
	/** Clients each variant needs before a verdict. */
	neededPerVariant: number;
	/** About how many more clients the split must see (by its weights) before one. */
	moreClients: number;
	differencePoints: number;
	/** The variant named best (ready, and probability at least `certainty`). */
	best?: string;
	text: string;
}

export interface VerdictOptions {
	/** The smallest difference worth telling, in percentage points (default 5). */
	differencePoints?: number;
	/** The probability of being best that names a winner (default 0.95). */
	certainty?: number;
}

const Z95 = normalQuantile(0.975);
const POWER = 0.8;
/** Never fewer clients per variant than this, whatever the difference asked. */
const FLOOR = 100;

export function splitVerdict(
	counts: readonly VariantCount[],
	options: VerdictOptions = {},
): { variants: VariantResult[]; verdict: Verdict } {
	const differencePoints = options.differencePoints ?? 5;
	const certainty = options.certainty ?? 0.95;
	const best = probabilitiesBest(counts);
	const variants = counts.map(({ variant, clients, goal }, i) => ({
		variant,
		clients,
		goal,
		conversion: clients > 0 ? goal / clients : null,
		interval: wilson(goal, clients),
		probabilityBest: best[i],
	}));
	const clients = counts.reduce((n, c) => n + c.clients, 0);
	const goals = counts.reduce((n, c) => n + c.goal, 0);
	const needed = sampleSize(
		clients > 0 ? goals / clients : 0,
		differencePoints / 100,
		counts.length,
	);
	const moreClients = clientsToGo(counts, needed);
	const ready = counts.length >= 2 && moreClients === 0;
	const top = variants.reduce((a, b) => (b.probabilityBest > a.probabilityBest ? b : a));
	const verdict: Verdict = {
		ready,
		neededPerVariant: needed,
		moreClients,
		differencePoints,
		text: '',
	};
	if (!ready)
		verdict.text = `not enough data yet (about ${moreClients.toLocaleString('en-US')} more clients needed to tell a difference of ${differencePoints} points)`;
	else if (top.probabilityBest >= certainty) {
		verdict.best = top.variant;
		verdict.text = `${top.variant} is best (${percent(top.probabilityBest)} probability)`;
	} else
		verdict.text = `no variant is clearly best: a difference of ${differencePoints} points or more is unlikely (${top.variant} leads, ${percent(top.probabilityBest)} probability)`;
	return { variants, verdict };
}

function percent(p: number): string {
	return `${(100 * p).toFixed(1)} %`;
}

/** The Wilson score interval at 95 %. */
export function wilson(goal: number, clients: number): { low: number; high: number } | null {
	if (clients <= 0) return null;
	const p = goal / clients;
	const z2 = Z95 * Z95;
	const scale = 1 + z2 / clients;
	const centre = (p + z2 / (2 * clients)) / scale;
	const half = (Z95 / scale) * Math.sqrt((p * (1 - p)) / clients + z2 / (4 * clients * clients));
	return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/**
 * Clients per variant for a two-sided two-proportion z-test to tell `baseline` from
 * `baseline + difference` (or minus, near 1), α = 5 % over the k − 1 comparisons, power 80 %.
 */
export function sampleSize(baseline: number, difference: number, variants: number): number {
	const p1 = Math.min(Math.max(baseline, 0), 1);
	const p2 = p1 + difference <= 1 ? p1 + difference : p1 - difference;
	const mean = (p1 + p2) / 2;
	const za = normalQuantile(1 - 0.05 / (2 * Math.max(1, variants - 1)));
	const zb = normalQuantile(POWER);
	const root =
		za * Math.sqrt(2 * mean * (1 - mean)) + zb * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2));
	return Math.max(FLOOR, Math.ceil((root * root) / (difference * difference)));
}

/** The clients the split must still see for its smallest-share variant to reach `needed`. */
function clientsToGo(counts: readonly VariantCount[], needed: number): number {
	const total = counts.reduce((n, c) => n + (c.weight ?? 1), 0);
	let most = 0;
	for (const c of counts) {
		const share = (c.weight ?? 1) / total;
		if (c.clients < needed && share > 0) most = Math.max(most, (needed - c.clients) / share);
	}
	return Math.ceil(most);
}

/**
 * P(variant i has the highest conversion) under independent Beta(1 + goal, 1 + clients − goal)
 * posteriors: ∫ fᵢ(x) ∏ⱼ≠ᵢ Fⱼ(x) dx over the bulk of fᵢ (its mean ± 12 standard deviations).
 */
export function probabilitiesBest(counts: readonly VariantCount[]): number[] {
	const posts = counts.map(({ clients, goal }) => {
		const a = 1 + goal;
		const b = 1 + Math.max(0, clients - goal);
		return { a, b, lnB: lnBeta(a, b) };
	});
	const raw = posts.map((own, i) => {
		const n = own.a + own.b;
		const mean = own.a / n;
		const sd = Math.sqrt((own.a * own.b) / (n * n * (n + 1)));
		const lo = Math.max(0, mean - 12 * sd);
		const hi = Math.min(1, mean + 12 * sd);
		const integrand = (x: number) => {
			let p = betaDensity(x, own.a, own.b, own.lnB);
			for (let j = 0; j < posts.length && p > 0; j++)
				if (j !== i) p *= betaCdf(x, posts[j].a, posts[j].b, posts[j].lnB);
			return p;
		};
		return simpson(integrand, lo, hi);
	});
	const sum = raw.reduce((a, b) => a + b, 0);
	return raw.map((p) => (sum > 0 ? p / sum : 1 / raw.length));
}
