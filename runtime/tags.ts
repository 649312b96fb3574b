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

/** Tags to add and to remove, in one update of a client's tags. */
export type TagChange = { add: string[]; remove: string[] };

/**
 * A client's tags after a change: removals first, then the additions not already there, in order;
 * surrounding spaces dropped.
 */
export function changeTags(tags: readonly string[], change: TagChange): string[] {
	const removed = new Set(change.remove.map((t) => t.trim()));
	const next = tags.filter((t) => !removed.has(t));
	for (const tag of change.add.map((t) => t.trim())) if (!next.includes(tag)) next.push(tag);
	return next;
}
