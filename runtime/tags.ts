/**
 * Tags from what a user typed: a list, or text where "a, b" counts as two tags. Surrounding
 * spaces are dropped and empty entries skipped.
 */
export function splitTags(value: unknown): string[] {
	const entries = Array.isArray(value) ? (value as unknown[]) : value == null ? [] : [value];
	return entries
		.flatMap((entry) => String(entry).split(','))
		.map((tag) => tag.trim())
		.filter((tag) => tag.length > 0);
}
