import { RepeatedPageError } from './errors';
import { check, LIMITS, schemas } from './schemas';

/** Reads one page: at most `limit` items from `offset` (the service's defaults when left out). */
export type PageReader<T> = (limit?: number, offset?: number) => Promise<T[]>;

export type PageOptions = {
	/** Stop after this many items (the node's Limit); all of them when left out. */
	max?: number;
	/** Items per request (default 1,000, the maximum: the fewest requests, A16). */
	pageSize?: number;
};

/** Two pages in a row that start alike: the second began where the first did. */
function repeats<T>(page: T[], previous: T[]): boolean {
	const n = Math.min(page.length, previous.length);
	return n > 0 && JSON.stringify(page.slice(0, n)) === JSON.stringify(previous.slice(0, n));
}

/**
 * Every item, page after page, until a page shorter than asked for (A16). A page that starts
 * like the one before it means the service ignored `offset`: reading on would never end, so it stops
 * with an error naming `operation`.
 */
export async function* paginate<T>(
	operation: string,
	read: PageReader<T>,
	options: PageOptions = {},
): AsyncGenerator<T> {
	const pageSize = check(schemas.page, { limit: options.pageSize ?? LIMITS.pageMax })
		.limit as number;
	const max = options.max ?? Number.POSITIVE_INFINITY;
	if (options.max !== undefined) check(schemas.page.shape.offset, options.max, 'limit');
	let offset = 0;
	let yielded = 0;
	let previous: T[] = [];
	while (yielded < max) {
		// Ask only for what is still wanted, so a Limit of 120 costs one request, not 1,000 rows.
		const limit = Math.min(pageSize, max - yielded);
		const items = await read(limit, offset);
		if (repeats(items, previous)) throw new RepeatedPageError(operation, offset, yielded);
		previous = items;
		for (const item of items) {
			yield item;
			if (++yielded >= max) return;
		}
		if (items.length < limit) return;
		offset += items.length;
	}
}
