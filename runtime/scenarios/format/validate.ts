import type { z } from 'zod/v4';

import { ScenarioValidationError, type ScenarioIssue } from './issue';
import { RuleChecker } from './rules';
import { FORMAT_FIELDS, scenarioSchema, type ScenarioDocument } from './schema';
import { didYouMean } from './suggest';
import { forEachAction, pathKey } from './walk';

/**
 * Checks a scenario and reports EVERY problem at once, each with its JSON path
 * (`states.menu.on[2].target: no state named "shiping"`): the shape (zod) and the rules that
 * span fields (targets, declared variables, template names, regular expressions) run side by side,
 * the latter defensively on the raw input so that one broken field hides nothing else.
 */

export type ValidationResult =
	| { ok: true; scenario: ScenarioDocument; issues: [] }
	| { ok: false; issues: ScenarioIssue[] };

export function validateScenario(input: unknown): ValidationResult {
	const parsed = scenarioSchema.safeParse(input, { error: defaultMessage });
	const issues = parsed.success ? [] : zodIssues(parsed.error.issues, input, []);
	const seen = new Set(issues.map((i) => i.path));
	for (const issue of new RuleChecker(input).run()) {
		// A field the shape check refused is not reported twice.
		if (!seen.has(issue.path)) issues.push(issue);
	}
	if (parsed.success && issues.length === 0) return { ok: true, scenario: parsed.data, issues: [] };
	return { ok: false, issues };
}

/** Parses or throws a ScenarioValidationError listing every problem. */
export function parseScenario(input: unknown): ScenarioDocument {
	const result = validateScenario(input);
	if (!result.ok) throw new ScenarioValidationError(result.issues);
	return result.scenario;
}

/** Rules between scenarios that jump to each other: unique ids, existing targets. */
export function validateScenarioSet(scenarios: readonly ScenarioDocument[]): ScenarioIssue[] {
	const issues: ScenarioIssue[] = [];
	const byId = new Map<string, ScenarioDocument>();
	for (const scenario of scenarios) {
		if (byId.has(scenario.id))
			issues.push({ scenario: scenario.id, path: 'id', message: 'is used by two scenarios' });
		byId.set(scenario.id, scenario);
	}
	for (const scenario of scenarios) {
		forEachAction(scenario, (action, path) => {
			if (!('goto' in action)) return;
			const target = byId.get(action.goto.scenario);
			if (!target) {
				issues.push({
					scenario: scenario.id,
					path: `${path}.goto.scenario`,
					message: `no scenario "${action.goto.scenario}" is loaded${didYouMean(action.goto.scenario, byId.keys())} (loaded: ${[...byId.keys()].join(', ')})`,
				});
			} else if (action.goto.state !== undefined && !(action.goto.state in target.states)) {
				issues.push({
					scenario: scenario.id,
					path: `${path}.goto.state`,
					message: `scenario "${target.id}" has no state named "${action.goto.state}"${didYouMean(action.goto.state, Object.keys(target.states))}`,
				});
			}
		});
	}
	return issues;
}

// ---- paths ----

function formatPath(path: readonly PropertyKey[]): string {
	let out = '';
	for (const key of path) {
		if (typeof key === 'number') out += `[${key}]`;
		else out += out === '' ? pathKey(String(key)) : `.${pathKey(String(key))}`;
	}
	return out;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
	let node = root;
	for (const key of path) {
		if (node === null || typeof node !== 'object') return undefined;
		node = (node as Record<PropertyKey, unknown>)[key];
	}
	return node;
}

// ---- shape issues ----

function zodIssues(
	issues: readonly z.core.$ZodIssue[],
	root: unknown,
	base: readonly PropertyKey[],
): ScenarioIssue[] {
	const out: ScenarioIssue[] = [];
	for (const issue of issues) {
		const path = [...base, ...issue.path];
		if (issue.code === 'invalid_union') {
			// A union of one-key objects: report inside the branch the author evidently meant.
			const node = valueAt(root, path);
			const meant = issue.errors.filter((branch) => branch.every((i) => fits(i, node)));
			if (meant.length === 1) out.push(...zodIssues(meant[0], root, path));
			else out.push({ path: formatPath(path), message: issue.message });
		} else if (issue.code === 'unrecognized_keys') {
			for (const key of issue.keys) {
				out.push({
					path: formatPath([...path, key]),
					message: `is not a known field${didYouMean(key, FORMAT_FIELDS)}`,
				});
			}
		} else if (issue.code === 'invalid_key') {
			const reason = issue.issues[0]?.message ?? 'is not allowed';
			out.push({ path: formatPath(path), message: `is not a valid name: ${reason}` });
		} else if (issue.code === 'invalid_type' && valueAt(root, path) === undefined) {
			out.push({ path: formatPath(path), message: 'is required' });
		} else {
			out.push({ path: formatPath(path), message: issue.message });
		}
	}
	return out;
}

/** Whether an issue of a union branch is about a field the input has (so that branch was meant). */
function fits(issue: z.core.$ZodIssue, node: unknown): boolean {
	if (issue.path.length === 0) return issue.code === 'custom';
	return node !== null && typeof node === 'object' && String(issue.path[0]) in node;
}

/** Messages for the few checks that carry none of their own. */
function defaultMessage(issue: z.core.$ZodRawIssue): string | undefined {
	switch (issue.code) {
		case 'invalid_type':
			return `must be ${issue.expected === 'array' ? 'a list' : issue.expected === 'object' ? 'an object' : `a ${issue.expected}`}`;
		case 'too_small':
			return issue.origin === 'array'
				? `must list at least ${String(issue.minimum)}`
				: `must be at least ${String(issue.minimum)}${issue.origin === 'string' ? ' characters' : ''}`;
		case 'too_big':
			return issue.origin === 'array'
				? `must list at most ${String(issue.maximum)}`
				: `must be at most ${String(issue.maximum)}${issue.origin === 'string' ? ' characters' : ''}`;
		case 'invalid_value':
			return `must be ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}`;
		default:
			return undefined;
	}
}
