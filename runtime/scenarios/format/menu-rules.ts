import type { ScenarioIssue } from './issue';
import { foldAnswer } from './menu';

/**
 * The menu's own rules, on raw input: every answer chooses one option only (a label, synonym or
 * number shared by two options would silently pick the first), and what may stand beside a menu.
 */

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
	value !== null && typeof value === 'object' && !Array.isArray(value);
const items = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

export function menuIssues(menu: Json, path: string): ScenarioIssue[] {
	const issues: ScenarioIssue[] = [];
	const add = (at: string, message: string) => issues.push({ path: at, message });
	const options = items(menu.options);
	const owners = new Map<string, { index: number; what: string }>();
	options.forEach((option, index) => {
		if (!isObject(option)) return;
		const at = `${path}.options[${index}]`;
		const answers: Array<[unknown, string, string]> = [
			[option.label, `${at}.label`, 'label'],
			...items(option.synonyms).map((s, i): [unknown, string, string] => [
				s,
				`${at}.synonyms[${i}]`,
				'synonym',
			]),
		];
		for (const [raw, where, what] of answers) {
			if (typeof raw !== 'string' || raw === '') continue;
			const key = foldAnswer(raw);
			if (key === '') {
				add(where, 'must hold a letter or a digit (case, accents and punctuation are ignored)');
				continue;
			}
			const number = /^\d+$/.test(key) ? Number(key) : undefined;
			if (number !== undefined && number !== index + 1 && number >= 1 && number <= options.length)
				add(where, `"${raw}" is option ${number}'s number: answering it chooses option ${number}`);
			const owner = owners.get(key);
			if (owner && owner.index !== index)
				add(
					where,
					`"${raw}" already chooses option ${owner.index + 1} (its ${owner.what}); each answer may choose one option only`,
				);
			else if (!owner) owners.set(key, { index, what });
		}
	});
	if (menu.retries !== undefined && menu.giveUp === undefined)
		add(
			`${path}.retries`,
			'has no effect without "giveUp" (the menu asks again until an option is chosen)',
		);
	return issues;
}

/** What cannot stand beside a menu in one state. */
export function menuConflicts(state: Json, path: string): ScenarioIssue[] {
	if (state.menu === undefined) return [];
	const issues: ScenarioIssue[] = [];
	if (state.capture !== undefined)
		issues.push({
			path: `${path}.menu`,
			message: 'cannot be used with "capture" (both wait for the answer to a question)',
		});
	if (state.choose !== undefined)
		issues.push({
			path: `${path}.menu`,
			message: 'cannot be used with "choose" (the state is left on entry, before any answer)',
		});
	if (state.fallback !== undefined)
		issues.push({
			path: `${path}.fallback`,
			message:
				'is never sent in a menu state (an answer that chooses nothing gets the menu\'s "retry")',
		});
	return issues;
}
