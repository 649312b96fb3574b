import {
	probabilitiesBest,
	sampleSize,
	splitVerdict,
	wilson,
} from '../../runtime/scenarios/analytics/verdict';
import { probabilityBBeatsA } from '../helpers/beta-reference';

/**
 * The split verdict's figures against references computed by other means: published Wilson
 * intervals, the closed form of P(B > A) for Beta posteriors with whole parameters
 * (helpers/beta-reference.ts), and the sample-size formula with its z values written out.
 */

const closedForm = probabilityBBeatsA;

describe('Wilson 95 % intervals', () => {
	it.each([
		// goal, clients, low, high (published values, 4 decimals)
		[10, 100, 0.0552, 0.1744],
		[50, 100, 0.4038, 0.5962],
		[0, 10, 0, 0.2775],
		[10, 10, 0.7225, 1],
		[1, 20, 0.0089, 0.2361],
	])('%d of %d: %f to %f', (goal, clients, low, high) => {
		const interval = wilson(goal, clients);
		expect(interval?.low).toBeCloseTo(low, 4);
		expect(interval?.high).toBeCloseTo(high, 4);
	});
	it('has none without clients', () => expect(wilson(0, 0)).toBeNull());
});

describe('probability that each variant is best', () => {
	it.each([
		// [clients, goals] of A and B
		[
			[100, 10],
			[100, 20],
		],
		[
			[1000, 100],
			[1000, 120],
		],
		[
			[50, 5],
			[80, 6],
		],
		[
			[5000, 2500],
			[5000, 2600],
		],
		[
			[20, 0],
			[20, 1],
		],
		[
			[0, 0],
			[10, 3],
		],
	] as Array<[[number, number], [number, number]]>)('A %j against B %j', (a, b) => {
		const reference = closedForm(a, b);
		const [pA, pB] = probabilitiesBest([
			{ variant: 'A', clients: a[0], goal: a[1] },
			{ variant: 'B', clients: b[0], goal: b[1] },
		]);
		expect(pB).toBeCloseTo(reference, 6);
		expect(pA + pB).toBeCloseTo(1, 12);
	});

	it('is even between equal variants, and the same on every call', () => {
		const three = [1, 2, 3].map((n) => ({ variant: `v${n}`, clients: 300, goal: 60 }));
		for (const p of probabilitiesBest(three)) expect(p).toBeCloseTo(1 / 3, 6);
		expect(probabilitiesBest(three)).toEqual(probabilitiesBest(three));
	});
});

describe('the sample-size rule', () => {
	// n = (z₀.₉₇₅ √(2 p̄(1 − p̄)) + z₀.₈ √(p₁(1 − p₁) + p₂(1 − p₂)))² / d², z written out.
	const reference = (p1: number, d: number, za = 1.959963984540054) => {
		const p2 = p1 + d;
		const mean = (p1 + p2) / 2;
		const root =
			za * Math.sqrt(2 * mean * (1 - mean)) +
			0.8416212335729143 * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2));
		return Math.ceil((root * root) / (d * d));
	};
	it.each([
		[0.5, 0.05, 1565],
		[0.1, 0.05, reference(0.1, 0.05)],
		[0.2, 0.02, reference(0.2, 0.02)],
		[0.05, 0.05, reference(0.05, 0.05)],
	])('baseline %f, difference %f: %d per variant', (p, d, n) => {
		expect(sampleSize(p, d, 2)).toBe(n);
	});
	it('splits α over the comparisons with three variants', () => {
		// z for 1 − 0.05 / 4: 2.241402727604947.
		expect(sampleSize(0.3, 0.05, 3)).toBe(reference(0.3, 0.05, 2.241402727604947));
	});
});

describe('the verdict', () => {
	it('gives no verdict before the sample, saying how many more clients', () => {
		const { verdict, variants } = splitVerdict([
			{ variant: 'short', clients: 400, goal: 200 },
			{ variant: 'warm', clients: 400, goal: 200 },
		]);
		// 1,565 each at 50 %; 1,165 more for each half: 2,330 more clients.
		expect(verdict).toMatchObject({ ready: false, neededPerVariant: 1565, moreClients: 2330 });
		expect(verdict.text).toBe(
			'not enough data yet (about 2,330 more clients needed to tell a difference of 5 points)',
		);
		expect(variants.map((v) => v.conversion)).toEqual([0.5, 0.5]);
	});

	it('does not name an early leader, however far ahead, before the sample', () => {
		const { verdict } = splitVerdict([
			{ variant: 'short', clients: 60, goal: 6 },
			{ variant: 'warm', clients: 60, goal: 30 },
		]);
		expect(verdict.ready).toBe(false);
		expect(verdict.best).toBeUndefined();
	});

	it('names the best once the sample is reached and it is 95 % likely', () => {
		const { verdict, variants } = splitVerdict([
			{ variant: 'short', clients: 2000, goal: 200 },
			{ variant: 'warm', clients: 2000, goal: 300 },
		]);
		expect(verdict).toMatchObject({ ready: true, best: 'warm', moreClients: 0 });
		expect(verdict.text).toMatch(/^warm is best \(\d+\.\d %/);
		expect(variants[1].probabilityBest).toBeCloseTo(closedForm([2000, 200], [2000, 300]), 6);
	});

	it('says when no variant is clearly best', () => {
		const { verdict } = splitVerdict([
			{ variant: 'short', clients: 2000, goal: 1000 },
			{ variant: 'warm', clients: 2000, goal: 1010 },
		]);
		expect(verdict.ready).toBe(true);
		expect(verdict.best).toBeUndefined();
		expect(verdict.text).toMatch(/^no variant is clearly best/);
	});

	it('counts the clients to go by the weights', () => {
		// 1 : 3, at 50 %: the small variant gets a quarter of the new clients.
		const { verdict } = splitVerdict([
			{ variant: 'a', clients: 1065, goal: 532, weight: 1 },
			{ variant: 'b', clients: 3000, goal: 1500, weight: 3 },
		]);
		expect(verdict.moreClients).toBe((1565 - 1065) * 4);
	});
});
