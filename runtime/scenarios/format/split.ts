import * as z from 'zod/v4';

import { actions, stateName, tag } from './schema-parts';

/**
 * The split step: a state that sends each client down one of its named variants by weight, the
 * same variant for the same client in every process and after restarts, with no shared counter:
 * the variant is read from a hash of the test's name and the client's id. An optional goal (a
 * state reached, or a tag added) is what the analytics compare the variants by.
 */

const MAX_VARIANTS = 10;
const MAX_WEIGHT = 1_000_000;

const variantName = z
	.string('must be a variant name')
	.regex(
		/^[A-Za-z][A-Za-z0-9_-]{0,63}$/,
		'must start with a letter and hold only letters, digits, "_" or "-" (at most 64)',
	);

const variantSchema = z
	.strictObject({
		name: variantName.describe('Shown in the analytics; unique within the split'),
		weight: z
			.number('must be a number')
			.positive('must be more than 0')
			.max(MAX_WEIGHT, `must be at most ${MAX_WEIGHT}`)
			.describe("The variant's share is its weight over the sum of the weights"),
		actions: actions.optional().describe('Run when a client is sent down this variant'),
		target: stateName.optional().describe('Where the variant leads'),
	})
	.meta({ id: 'Variant' });

const goalSchema = z
	.union(
		[
			z.strictObject({ state: stateName.describe('Reached when the client enters this state') }),
			z.strictObject({ tag: tag.describe('Reached when the scenario adds this tag') }),
		],
		{ error: 'must be {"state": …} or {"tag": …}' },
	)
	.describe('What counts as a success for the verdict');

export const splitSchema = z
	.strictObject({
		name: variantName
			.optional()
			.describe(
				"The test's name: a client's variant is derived from it and the client's id (default: the state's name)",
			),
		variants: z
			.array(variantSchema, 'must be a list of variants')
			.min(2, 'must list at least 2 variants')
			.max(MAX_VARIANTS, `must list at most ${MAX_VARIANTS} variants`),
		goal: goalSchema.optional(),
		winner: variantName
			.optional()
			.describe(
				'End Test: every new client gets this variant; clients already assigned keep theirs',
			),
	})
	.meta({
		id: 'Split',
		description:
			'Decided on entry: each client goes down one variant by weight, the same one every time',
	});

export type SplitDef = z.output<typeof splitSchema>;
export type SplitVariant = SplitDef['variants'][number];

/** The test's name: its own, or its state's. */
export function splitName(split: Pick<SplitDef, 'name'>, state: string): string {
	return split.name ?? state;
}

/**
 * A client's place in a test, uniform in [0, 1): FNV-1a over the test's name and the client's id,
 * then murmur3's finaliser so that ids differing in one character spread over the whole range.
 */
export function splitPoint(test: string, clientId: string): number {
	let h = 0x811c9dc5;
	const key = `${test}\u0000${clientId}`;
	for (let i = 0; i < key.length; i++) {
		h ^= key.charCodeAt(i);
		h = Math.imul(h, 0x01000193);
	}
	h ^= h >>> 16;
	h = Math.imul(h, 0x85ebca6b);
	h ^= h >>> 13;
	h = Math.imul(h, 0xc2b2ae35);
	h ^= h >>> 16;
	return (h >>> 0) / 2 ** 32;
}

/** The variant a point falls in: each variant owns a slice of [0, 1) as wide as its share. */
export function variantAt(
	variants: ReadonlyArray<Pick<SplitVariant, 'name' | 'weight'>>,
	point: number,
): string {
	const total = variants.reduce((sum, v) => sum + v.weight, 0);
	let edge = 0;
	for (const variant of variants) {
		edge += variant.weight / total;
		if (point < edge) return variant.name;
	}
	return variants[variants.length - 1].name;
}

/** The variant a new client gets: the winner once the test has ended, else its hash's. */
export function assignVariant(
	split: Pick<SplitDef, 'variants' | 'winner'>,
	test: string,
	clientId: string,
): string {
	return split.winner ?? variantAt(split.variants, splitPoint(test, clientId));
}
