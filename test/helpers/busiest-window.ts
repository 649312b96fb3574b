/** The most moments that fall into any window of `windowMs` (a window holds [t, t + windowMs)). */
export function mostInAnyWindow(times: readonly number[], windowMs: number): number {
	const sorted = [...times].sort((a, b) => a - b);
	let most = 0;
	for (let i = 0, j = 0; j < sorted.length; j++) {
		while (sorted[j] - sorted[i] >= windowMs) i++;
		most = Math.max(most, j - i + 1);
	}
	return most;
}

/** The most requests of the emulator's request log that fell into any window of `windowMs`. */
export function busiestWindow(log: ReadonlyArray<{ at: string }>, windowMs: number): number {
	return mostInAnyWindow(
		log.map((r) => Date.parse(r.at)),
		windowMs,
	);
}
