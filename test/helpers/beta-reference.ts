/**
 * Reference figures for split verdicts, computed apart from the module under test: the closed
 * form of P(θB > θA) for Beta posteriors with whole parameters (a sum of beta functions, with
 * log-factorials from a table of summed logs), and the Wilson interval with z written out.
 */

const LN_FACTORIAL = [0, 0];
/** ln((n − 1)!): Γ(n) for a whole n. */
function lnGammaWhole(n: number): number {
	for (let k = LN_FACTORIAL.length; k <= n; k++)
		LN_FACTORIAL.push(LN_FACTORIAL[k - 1] + Math.log(k - 1));
	return LN_FACTORIAL[n];
}
const lnB = (a: number, b: number) => lnGammaWhole(a) + lnGammaWhole(b) - lnGammaWhole(a + b);

/**
 * P(θB > θA), θ ~ Beta(1 + goal, 1 + clients − goal), given [clients, goal] of each:
 * Σᵢ B(αA + i, βA + βB) / ((βB + i) B(1 + i, βB) B(αA, βA)), i from 0 to αB − 1.
 */
export function probabilityBBeatsA(a: [number, number], b: [number, number]): number {
	const [aA, bA] = [1 + a[1], 1 + a[0] - a[1]];
	const [aB, bB] = [1 + b[1], 1 + b[0] - b[1]];
	let total = 0;
	for (let i = 0; i < aB; i++)
		total += Math.exp(lnB(aA + i, bA + bB) - Math.log(bB + i) - lnB(1 + i, bB) - lnB(aA, bA));
	return total;
}

/** The 95 % Wilson score interval, z = 1.959963984540054. */
export function wilsonReference(goal: number, clients: number): [number, number] {
	const z = 1.959963984540054;
	const p = goal / clients;
	const denominator = 1 + (z * z) / clients;
	const centre = p + (z * z) / (2 * clients);
	const spread = z * Math.sqrt((p * (1 - p) + (z * z) / (4 * clients)) / clients);
	return [(centre - spread) / denominator, (centre + spread) / denominator];
}
