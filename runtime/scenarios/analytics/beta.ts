/**
 * The few special functions the split verdict needs (verdict.ts), computed deterministically:
 * log-gamma (Lanczos, g = 7), the regularised incomplete beta function (Lentz's continued
 * fraction), the normal quantile (Acklam's rational approximation, refined by one Halley step),
 * and Simpson's rule. Accurate to about 1e-10 over the counts a split sees.
 */

const LANCZOS = [
	0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
	-176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
	1.5056327351493116e-7,
];

function lnGamma(x: number): number {
	if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
	const z = x - 1;
	let sum = LANCZOS[0];
	for (let i = 1; i < 9; i++) sum += LANCZOS[i] / (z + i);
	const t = z + 7.5;
	return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

export function lnBeta(a: number, b: number): number {
	return lnGamma(a) + lnGamma(b) - lnGamma(a + b);
}

/** The density of Beta(a, b) at x. */
export function betaDensity(x: number, a: number, b: number, lnB = lnBeta(a, b)): number {
	if (x <= 0 || x >= 1) return (x <= 0 && a === 1) || (x >= 1 && b === 1) ? Math.exp(-lnB) : 0;
	return Math.exp((a - 1) * Math.log(x) + (b - 1) * Math.log1p(-x) - lnB);
}

/** P(X ≤ x) for X ~ Beta(a, b): the regularised incomplete beta function. */
export function betaCdf(x: number, a: number, b: number, lnB = lnBeta(a, b)): number {
	if (x <= 0) return 0;
	if (x >= 1) return 1;
	const front = Math.exp(a * Math.log(x) + b * Math.log1p(-x) - lnB);
	if (x < (a + 1) / (a + b + 2)) return (front * continuedFraction(x, a, b)) / a;
	return 1 - (front * continuedFraction(1 - x, b, a)) / b;
}

const TINY = 1e-300;
const EPS = 1e-14;

function continuedFraction(x: number, a: number, b: number): number {
	const clamp = (v: number) => (Math.abs(v) < TINY ? TINY : v);
	let c = 1;
	let d = 1 / clamp(1 - ((a + b) * x) / (a + 1));
	let h = d;
	for (let m = 1; m <= 100_000; m++) {
		const m2 = 2 * m;
		let aa = (m * (b - m) * x) / ((a - 1 + m2) * (a + m2));
		d = 1 / clamp(1 + aa * d);
		c = clamp(1 + aa / c);
		h *= d * c;
		aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + 1 + m2));
		d = 1 / clamp(1 + aa * d);
		c = clamp(1 + aa / c);
		const step = d * c;
		h *= step;
		if (Math.abs(step - 1) < EPS) break;
	}
	return h;
}

/** The standard normal's cumulative distribution. */
function normalCdf(z: number): number {
	return 0.5 * erfc(-z / Math.SQRT2);
}

/** erfc: erf's Taylor series below 2, erfc's continued fraction (Lentz) beyond. */
function erfc(x: number): number {
	if (x < 0) return 2 - erfc(-x);
	if (x < 2) {
		let sum = x;
		let term = x;
		for (let n = 1; n < 200; n++) {
			term *= (-x * x) / n;
			const add = term / (2 * n + 1);
			sum += add;
			if (Math.abs(add) < 1e-17) break;
		}
		return 1 - (2 / Math.sqrt(Math.PI)) * sum;
	}
	let f = x;
	let c = x;
	let d = 0;
	for (let n = 1; n < 500; n++) {
		const an = n / 2;
		d = 1 / (x + an * d);
		c = x + an / c;
		const step = c * d;
		f *= step;
		if (Math.abs(step - 1) < 1e-16) break;
	}
	return Math.exp(-x * x) / (f * Math.sqrt(Math.PI));
}

const A = [
	-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
	2.506628277459239,
];
const B = [
	-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572,
];
const C = [
	-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734,
	4.374664141464968, 2.938163982698783,
];
const D = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];

/** The z with Φ(z) = p, 0 < p < 1. */
export function normalQuantile(p: number): number {
	const tail = (q: number) =>
		(((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5]) /
		((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1);
	let z: number;
	if (p < 0.02425) z = tail(Math.sqrt(-2 * Math.log(p)));
	else if (p > 1 - 0.02425) z = -tail(Math.sqrt(-2 * Math.log(1 - p)));
	else {
		const q = p - 0.5;
		const r = q * q;
		z =
			((((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q) /
			(((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1);
	}
	// One Halley step brings it to full precision.
	const e = normalCdf(z) - p;
	const u = e * Math.sqrt(2 * Math.PI) * Math.exp((z * z) / 2);
	return z - u / (1 + (z * u) / 2);
}

/** ∫ f over [lo, hi] by Simpson's rule on `intervals` (even) intervals. */
export function simpson(
	f: (x: number) => number,
	lo: number,
	hi: number,
	intervals = 2000,
): number {
	const h = (hi - lo) / intervals;
	let sum = f(lo) + f(hi);
	for (let i = 1; i < intervals; i++) sum += (i % 2 === 1 ? 4 : 2) * f(lo + i * h);
	return (sum * h) / 3;
}
