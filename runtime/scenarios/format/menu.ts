import * as z from 'zod/v4';

import { actions, MAX_RETRIES, plain, stateName, text, varName } from './schema-parts';
import { editDistance } from './suggest';

/**
 * The menu step: a question whose options the bot lists numbered in one text message (docs/service-assumptions.md#a42), and
 * the pure matching of a client's answer to one option: its number, its label or a synonym, or
 * a near spelling of one. Case, accents and punctuation are ignored.
 */

const MAX_MENU_OPTIONS = 20;
/** Retries before giving up when "giveUp" is set and "retries" is not. */
export const DEFAULT_MENU_RETRIES = 2;

const optionSchema = z
	.strictObject({
		label: plain.describe('Shown numbered in the menu; the client may answer with it'),
		synonyms: z
			.array(plain, 'must be a list of texts')
			.optional()
			.describe('Other answers that choose this option'),
		target: stateName.optional().describe('The state to go to (default: stay)'),
		actions: actions.optional().describe('Run when the option is chosen'),
	})
	.meta({ id: 'MenuOption' });

export const menuSchema = z
	.strictObject({
		text: text.optional().describe('The question, sent before the numbered options'),
		options: z
			.array(optionSchema, 'must be a list of options')
			.min(1, 'must list at least one option')
			.max(MAX_MENU_OPTIONS, `must list at most ${MAX_MENU_OPTIONS} options`),
		into: varName.optional().describe("The variable that receives the chosen option's label"),
		retry: text
			.optional()
			.describe(
				'Sent after an answer that chooses no option (default: the numbers to answer with)',
			),
		retries: z
			.number('must be a number')
			.int('must be a whole number')
			.min(1, 'must be at least 1')
			.max(MAX_RETRIES, `must be at most ${MAX_RETRIES}`)
			.optional()
			.describe(
				`With "giveUp": how many retries before giving up (default ${DEFAULT_MENU_RETRIES})`,
			),
		giveUp: z
			.strictObject({
				target: stateName.optional(),
				say: text.optional(),
				actions: actions.optional(),
			})
			.optional()
			.describe('After the last retry: say this and go to target (without it, retry forever)'),
	})
	.meta({
		id: 'Menu',
		description: 'A question with numbered options; each option is an arrow to its target',
	});

export type MenuDef = z.output<typeof menuSchema>;
export type MenuOption = MenuDef['options'][number];

/** The options numbered, one a line, after the question. */
export function menuListing(labels: readonly string[]): string {
	return labels.map((label, i) => `${i + 1}. ${label}`).join('\n');
}

/** What an unmatched answer gets when the menu says nothing: the numbers to answer with. */
export function defaultMenuRetry(count: number): string {
	if (count === 1) return 'Please answer with 1.';
	const numbers = Array.from({ length: count }, (_, i) => String(i + 1));
	return `Please answer with ${numbers.slice(0, -1).join(', ')} or ${numbers[count - 1]}.`;
}

/** Case, accents, punctuation and runs of spaces set aside: "Opening-Hours!" is "opening hours". */
export function foldAnswer(value: string): string {
	return value
		.normalize('NFKD')
		.replace(/\p{M}/gu, '')
		.toLowerCase()
		.replace(/[^\p{L}\p{N}]+/gu, ' ')
		.trim();
}

/** The answers that choose each option, folded: its label, then its synonyms. */
export type PreparedMenu = string[][];

export function prepareMenu(options: ReadonlyArray<{ label: string; synonyms?: string[] }>) {
	return options.map((o) => [o.label, ...(o.synonyms ?? [])].map(foldAnswer));
}

/** Edits a near spelling may have: none under 4 letters, one up to 7, two beyond. */
function tolerance(key: string): number {
	return key.length < 4 ? 0 : key.length <= 7 ? 1 : 2;
}

const NUMBER = /^#?\s*(\d{1,3})\s*[.)]?$/;

/**
 * The option an answer chooses (its index), or undefined: its number; else a label or synonym
 * exactly (folded); else the one option with the nearest spelling within tolerance (a tie between
 * two options chooses neither).
 */
export function chooseOption(menu: PreparedMenu, raw: string): number | undefined {
	const number = NUMBER.exec(raw.trim());
	if (number) {
		const index = Number(number[1]) - 1;
		if (index >= 0 && index < menu.length) return index;
	}
	const answer = foldAnswer(raw);
	if (answer === '') return undefined;
	const exact = menu.findIndex((keys) => keys.includes(answer));
	if (exact >= 0) return exact;
	let best: { index: number; distance: number } | undefined;
	let tied = false;
	menu.forEach((keys, index) => {
		for (const key of keys) {
			const distance = editDistance(answer, key);
			if (distance > tolerance(key)) continue;
			if (!best || distance < best.distance) {
				best = { index, distance };
				tied = false;
			} else if (distance === best.distance && best.index !== index) tied = true;
		}
	});
	return best && !tied ? best.index : undefined;
}
