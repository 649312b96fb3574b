/**
 * A split step as the canvas draws it: its variants, each with its weight and its share of new
 * clients (all of them to the winner once one is set), read from a draft that may be half written.
 */

export interface VariantRow {
	name: string;
	weight: number;
	/** Percent of new clients, to one decimal. */
	share: number;
	winner: boolean;
}

/** The room one variant's line takes in a box. */
export const VARIANT_LINE = 18;

type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj =>
	value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : {};

/** The state's variants, or undefined when it is no split step. */
export function splitRows(state: unknown): VariantRow[] | undefined {
	const split = obj(state).split;
	if (split === undefined) return undefined;
	const variants = Array.isArray(obj(split).variants) ? (obj(split).variants as unknown[]) : [];
	const winner = obj(split).winner;
	const weights = variants.map((v) => {
		const weight = obj(v).weight;
		return typeof weight === 'number' && weight > 0 ? weight : 0;
	});
	const total = weights.reduce((a, b) => a + b, 0);
	return variants.map((v, i) => {
		const name = String(obj(v).name ?? '?');
		const share =
			typeof winner === 'string'
				? name === winner
					? 100
					: 0
				: total > 0
					? (100 * weights[i]) / total
					: 0;
		return { name, weight: weights[i], share: Number(share.toFixed(1)), winner: name === winner };
	});
}

/** Each split state's variants, by state. */
export function splitsOf(draft: unknown): Map<string, VariantRow[]> {
	const found = new Map<string, VariantRow[]>();
	for (const [name, state] of Object.entries(obj(obj(draft).states))) {
		const rows = splitRows(state);
		if (rows) found.set(name, rows);
	}
	return found;
}
