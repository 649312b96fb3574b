import type { ScenarioIssue } from './issue';
import { didYouMean } from './suggest';
import { pathKey } from './walk';

/**
 * A split's own rules, on raw input: variant names unique, the winner one of them, the goal a
 * state of the scenario, each test's name used once (two splits sharing a name would share
 * their clients' variants and their counters), and what may stand beside a split.
 */

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
	value !== null && typeof value === 'object' && !Array.isArray(value);
const items = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** What cannot stand beside a split: the state is left on entry, before any message. */
const BESIDE = ['on', 'capture', 'menu', 'call', 'choose', 'after', 'fallback', 'end'] as const;

export function splitIssues(doc: unknown): ScenarioIssue[] {
	const issues: ScenarioIssue[] = [];
	const states = isObject(doc) && isObject(doc.states) ? doc.states : {};
	const tests = new Map<string, string>();
	for (const [name, state] of Object.entries(states)) {
		if (!isObject(state) || !isObject(state.split)) continue;
		const path = `states.${pathKey(name)}`;
		const split = state.split;
		const add = (at: string, message: string) => issues.push({ path: at, message });
		const test = typeof split.name === 'string' ? split.name : name;
		const other = tests.get(test);
		if (other !== undefined)
			add(
				`${path}.split${typeof split.name === 'string' ? '.name' : ''}`,
				`the test "${test}" is already the split of state ${other}; give each split its own "name"`,
			);
		else tests.set(test, name);
		const names: string[] = [];
		items(split.variants).forEach((variant, i) => {
			if (!isObject(variant) || typeof variant.name !== 'string') return;
			if (names.includes(variant.name))
				add(`${path}.split.variants[${i}].name`, `"${variant.name}" names two variants`);
			names.push(variant.name);
			if (variant.target === name)
				add(
					`${path}.split.variants[${i}].target`,
					'cannot be the state itself (it would split again forever)',
				);
		});
		if (typeof split.winner === 'string' && names.length > 0 && !names.includes(split.winner))
			add(
				`${path}.split.winner`,
				`no variant named "${split.winner}"${didYouMean(split.winner, names)} (variants: ${names.join(', ')})`,
			);
		const goal = isObject(split.goal) ? split.goal.state : undefined;
		if (typeof goal === 'string' && !(goal in states))
			add(
				`${path}.split.goal.state`,
				`no state named "${goal}"${didYouMean(goal, Object.keys(states))}`,
			);
		for (const key of BESIDE)
			if (state[key] !== undefined)
				add(
					`${path}.${key}`,
					'cannot be used with "split" (the state sends the client down a variant on entry)',
				);
	}
	return issues;
}

/** What is allowed in a split but probably not meant. */
export function splitWarnings(doc: unknown): ScenarioIssue[] {
	const warnings: ScenarioIssue[] = [];
	const states = isObject(doc) && isObject(doc.states) ? doc.states : {};
	for (const [name, state] of Object.entries(states)) {
		if (!isObject(state) || !isObject(state.split)) continue;
		const path = `states.${pathKey(name)}.split`;
		const split = state.split;
		if (split.goal === undefined)
			warnings.push({
				path,
				message:
					'has no "goal": the analytics count each variant\'s clients but cannot say which does better',
			});
		if (typeof split.winner === 'string')
			warnings.push({
				path: `${path}.winner`,
				message: `the test has ended: every new client goes down "${split.winner}"; clients already assigned keep theirs`,
			});
		const targets = items(split.variants).map((v) => (isObject(v) ? v.target : undefined));
		const same = targets.findIndex((t, i) => t !== undefined && targets.indexOf(t) !== i);
		if (same >= 0 && items(split.variants).every((v) => isObject(v) && v.actions === undefined))
			warnings.push({
				path: `${path}.variants[${same}].target`,
				message: `leads to the same state as another variant with nothing different on the way: the test compares nothing`,
			});
	}
	return warnings;
}
