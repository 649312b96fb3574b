/** "did you mean" for a misspelt name: the closest candidate within a couple of edits. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
	let best: string | undefined;
	let bestDistance = Math.max(1, Math.min(3, Math.floor(name.length / 3)));
	for (const candidate of candidates) {
		const d = editDistance(name.toLowerCase(), candidate.toLowerCase());
		if (d <= bestDistance && candidate !== name) {
			best = candidate;
			bestDistance = d - 1;
		}
	}
	return best === undefined ? '' : ` (did you mean "${best}"?)`;
}

/** Levenshtein distance: insertions, deletions and substitutions, one each. */
export function editDistance(a: string, b: string): number {
	let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
	for (let i = 1; i <= a.length; i++) {
		const current = [i];
		for (let j = 1; j <= b.length; j++) {
			current[j] = Math.min(
				previous[j] + 1,
				current[j - 1] + 1,
				previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
			);
		}
		previous = current;
	}
	return previous[b.length];
}
