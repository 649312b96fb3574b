import type { z } from 'zod/v4';

import { checkPattern, REGEX_STATE_LIMIT } from './safe-regex';
import { scenarioSchema, type ActionDef, type ScenarioDocument } from './schema';
import { didYouMean } from './suggest';
import { parseTemplate } from './templates';

/**
 * Checks a scenario and reports EVERY problem at once, each with its JSON path
 * (`states.menu.on[2].target: no state named "shiping"`): the shape (zod) and the rules that
 * span fields (targets, declared variables, template names, regular expressions) run side by side,
 * the latter defensively on the raw input so that one broken field hides nothing else.
 */

export interface ScenarioIssue {
	/** The scenario's id, when several are checked together. */
	scenario?: string;
	path: string;
	message: string;
}

export class ScenarioValidationError extends Error {
	constructor(readonly issues: ScenarioIssue[]) {
		super(
			`The scenario is invalid (${issues.length} ${issues.length === 1 ? 'problem' : 'problems'}):\n${issues.map(formatIssue).join('\n')}`,
		);
		this.name = 'ScenarioValidationError';
	}
}

export function formatIssue(issue: ScenarioIssue): string {
	return `${issue.scenario ? `${issue.scenario}: ` : ''}${issue.path || '(document)'}: ${issue.message}`;
}

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

/** Every action list of a scenario with its path, for checks and tools. */
export function forEachAction(
	scenario: ScenarioDocument,
	visit: (action: ActionDef, path: string) => void,
): void {
	const list = (actions: ActionDef[] | undefined, path: string) =>
		actions?.forEach((action, i) => visit(action, `${path}[${i}]`));
	scenario.keywords?.forEach((t, i) => list(t.actions, `keywords[${i}].actions`));
	for (const [name, state] of Object.entries(scenario.states)) {
		const at = `states.${pathKey(name)}`;
		list(state.actions, `${at}.actions`);
		state.on?.forEach((t, i) => list(t.actions, `${at}.on[${i}].actions`));
		list(state.capture?.actions, `${at}.capture.actions`);
		list(state.capture?.giveUp.actions, `${at}.capture.giveUp.actions`);
		list(state.after?.actions, `${at}.after.actions`);
	}
}

// ---- paths ----

export function formatPath(path: readonly PropertyKey[]): string {
	let out = '';
	for (const key of path) {
		if (typeof key === 'number') out += `[${key}]`;
		else out += out === '' ? pathKey(String(key)) : `.${pathKey(String(key))}`;
	}
	return out;
}

function pathKey(key: string): string {
	return /^[A-Za-z0-9_$-]+$/.test(key) ? key : JSON.stringify(key);
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

/** Every field name of the format, for "did you mean" on an unknown one. */
const KNOWN_FIELDS = [
	'id',
	'version',
	'description',
	'start',
	'variables',
	'fallback',
	'keywords',
	'states',
	'messages',
	'actions',
	'on',
	'capture',
	'after',
	'end',
	'match',
	'when',
	'target',
	'equals',
	'contains',
	'startsWith',
	'regex',
	'number',
	'any',
	'caseSensitive',
	'min',
	'max',
	'tag',
	'notTag',
	'var',
	'set',
	'notEquals',
	'reply',
	'addTags',
	'removeTags',
	'handoff',
	'goto',
	'scenario',
	'state',
	'into',
	'check',
	'retry',
	'retries',
	'giveUp',
	'say',
	'oneOf',
	'minutes',
	'send',
];

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
					message: `is not a known field${didYouMean(key, KNOWN_FIELDS)}`,
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

// ---- rules across fields ----

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
	value !== null && typeof value === 'object' && !Array.isArray(value);
const items = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

class RuleChecker {
	private readonly issues: ScenarioIssue[] = [];
	private readonly states: Json;
	private readonly declared = new Set<string>();
	private keywordsRegexCost = 0;

	constructor(private readonly doc: unknown) {
		this.states = isObject(doc) && isObject(doc.states) ? doc.states : {};
	}

	run(): ScenarioIssue[] {
		const doc = this.doc;
		if (!isObject(doc)) return this.issues;
		this.declareVariables(doc);
		if (typeof doc.start === 'string') this.target(doc.start, 'start');
		this.text(doc.fallback, 'fallback');
		this.keywordsRegexCost = items(doc.keywords).reduce<number>(
			(sum, t, i) => sum + this.transition(t, `keywords[${i}]`),
			0,
		);
		this.regexBudget(this.keywordsRegexCost, 'keywords', "the keywords' regular expressions");
		for (const [name, state] of Object.entries(this.states)) {
			this.state(state, `states.${pathKey(name)}`);
		}
		return this.issues;
	}

	private add(path: string, message: string) {
		this.issues.push({ path, message });
	}

	private declareVariables(doc: Json) {
		items(doc.variables).forEach((name, i) => {
			if (typeof name !== 'string') return;
			if (this.declared.has(name)) this.add(`variables[${i}]`, `declares "${name}" twice`);
			this.declared.add(name);
		});
		for (const state of Object.values(this.states)) {
			if (isObject(state) && isObject(state.capture) && typeof state.capture.into === 'string')
				this.declared.add(state.capture.into);
		}
	}

	private target(name: unknown, path: string) {
		if (typeof name !== 'string' || name in this.states) return;
		this.add(
			path,
			`no state named "${name}"${didYouMean(name, Object.keys(this.states))} (states: ${Object.keys(this.states).join(', ')})`,
		);
	}

	private text(value: unknown, path: string) {
		if (typeof value !== 'string') return;
		for (const error of parseTemplate(value, this.declared).errors) this.add(path, error);
	}

	private texts(value: unknown, path: string) {
		if (Array.isArray(value)) value.forEach((t, i) => this.text(t, `${path}[${i}]`));
		else this.text(value, path);
	}

	private variable(name: unknown, path: string) {
		if (typeof name !== 'string' || this.declared.has(name)) return;
		this.add(
			path,
			`no variable named "${name}"${didYouMean(name, this.declared)}; declare it in "variables" or capture it`,
		);
	}

	private range(value: unknown, path: string) {
		if (!isObject(value)) return;
		if (typeof value.min === 'number' && typeof value.max === 'number' && value.min > value.max)
			this.add(`${path}.max`, `must not be less than min (${value.min})`);
	}

	/** A pattern that could stall on a client message is refused; returns its matching cost. */
	private regex(value: Json, path: string): number {
		if (typeof value.regex !== 'string') return 0;
		const verdict = checkPattern(value.regex, value.caseSensitive === true);
		if (!verdict.ok) {
			this.add(`${path}.regex`, verdict.problem);
			return 0;
		}
		return verdict.cost;
	}

	/** Every pattern a message meets in one place is tried on it: their costs add up. */
	private regexBudget(cost: number, path: string, what: string) {
		if (cost > REGEX_STATE_LIMIT)
			this.add(
				path,
				`${what} are too complex together (${cost} automaton instructions, at most ${REGEX_STATE_LIMIT}): a client message is tried against all of them; simplify counted repeats such as {1,100}`,
			);
	}

	/** `leaves`: the list may end the conversation or jump (transitions), entry actions may not. */
	private actions(list: unknown, path: string, leaves: boolean): boolean {
		let leaving = 0;
		items(list).forEach((action, i) => {
			const at = `${path}[${i}]`;
			if (!isObject(action)) return;
			this.text(action.reply, `${at}.reply`);
			if (isObject(action.set)) {
				for (const [name, value] of Object.entries(action.set)) {
					this.variable(name, `${at}.set.${pathKey(name)}`);
					this.text(value, `${at}.set.${pathKey(name)}`);
				}
			}
			if ('goto' in action || 'end' in action) {
				leaving++;
				if (!leaves)
					this.add(
						at,
						'"end" and "goto" belong on a transition (to end on entry, mark the state "end": true)',
					);
				else if (leaving === 2) this.add(at, 'only one "end" or "goto" may end a list of actions');
			}
			if (isObject(action.goto) && isObject(this.doc) && action.goto.scenario === this.doc.id)
				this.target(action.goto.state, `${at}.goto.state`);
		});
		return leaving > 0;
	}

	/** A step's target, and its actions that may leave instead. */
	private step(owner: Json, path: string, targetRequired: boolean) {
		const leaves = this.actions(owner.actions, `${path}.actions`, true);
		this.target(owner.target, `${path}.target`);
		if (leaves && owner.target !== undefined)
			this.add(
				`${path}.target`,
				'cannot be set when an action ends the conversation or jumps to another scenario',
			);
		if (targetRequired && !leaves && owner.target === undefined)
			this.add(`${path}.target`, 'is required (or end the conversation, or jump with "goto")');
	}

	/** Returns the cost of its regular expression, if it has one. */
	private transition(t: unknown, path: string): number {
		if (!isObject(t)) return 0;
		let cost = 0;
		if (isObject(t.match)) {
			cost = this.regex(t.match, `${path}.match`);
			this.range(t.match.number, `${path}.match.number`);
		}
		items(t.when).forEach((c, i) => {
			if (!isObject(c)) return;
			this.variable(c.var, `${path}.when[${i}].var`);
			this.range(c, `${path}.when[${i}]`);
		});
		this.step(t, path, false);
		return cost;
	}

	private state(state: unknown, path: string) {
		if (!isObject(state)) return;
		items(state.messages).forEach((m, i) => this.text(m, `${path}.messages[${i}]`));
		this.actions(state.actions, `${path}.actions`, false);
		let regexCost = items(state.on).reduce<number>(
			(sum, t, i) => sum + this.transition(t, `${path}.on[${i}]`),
			0,
		);
		this.text(state.fallback, `${path}.fallback`);
		const capture = state.capture;
		if (isObject(capture)) {
			if (isObject(capture.check)) {
				regexCost += this.regex(capture.check, `${path}.capture.check`);
				this.range(capture.check.number, `${path}.capture.check.number`);
			}
			this.text(capture.retry, `${path}.capture.retry`);
			this.step(capture, `${path}.capture`, false);
			if (isObject(capture.giveUp)) {
				this.text(capture.giveUp.say, `${path}.capture.giveUp.say`);
				this.step(capture.giveUp, `${path}.capture.giveUp`, true);
			}
		}
		if (regexCost > 0 && state.end !== true)
			this.regexBudget(
				regexCost + this.keywordsRegexCost,
				path,
				"its regular expressions (with the keywords')",
			);
		const after = state.after;
		if (isObject(after)) {
			this.texts(after.send, `${path}.after.send`);
			this.step(after, `${path}.after`, false);
			if (after.send === undefined && after.actions === undefined && after.target === undefined)
				this.add(`${path}.after`, 'must send something, run actions or name a target');
		}
		if (state.end === true) {
			for (const key of ['on', 'capture', 'after', 'fallback'] as const) {
				if (state[key] !== undefined)
					this.add(`${path}.${key}`, 'cannot be used in an end state (the conversation is over)');
			}
		}
	}
}
