import { checkPattern, REGEX_STATE_LIMIT } from './safe-regex';
import type { ActionDef, StateDef } from './schema';
import { didYouMean } from './suggest';
import { parseTemplate } from './templates';
import type { ScenarioIssue } from './issue';
import { menuConflicts, menuIssues } from './menu-rules';
import { splitIssues } from './split-rules';
import { assignedVariables, declaredVariables, readsOrders } from './document-facts';
import { pathKey, walkScenario, type StepVisit, type StepSite } from './walk';

/**
 * The rules that span fields (targets, declared variables, template names, regular expressions),
 * run on the raw input beside the shape check so that one broken field hides nothing else.
 */

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
	value !== null && typeof value === 'object' && !Array.isArray(value);
const items = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const leaves = (action: unknown) => isObject(action) && ('goto' in action || 'end' in action);

export class RuleChecker {
	private readonly issues: ScenarioIssue[] = [];
	private readonly states: Json;
	private readonly declared: Set<string>;
	private readonly findsOrders: boolean;
	/** Variables something in the scenario sets: a capture, a call's "store", a "set". */
	private readonly assigned: Set<string>;
	/** Regular-expression cost of the keywords, and of each state's own matchers. */
	private keywordsRegexCost = 0;
	private readonly stateRegexCost = new Map<string, number>();
	/** The action list being walked: whether it runs on entry, and how many actions left. */
	private list = { entry: false, leaving: 0 };

	constructor(private readonly doc: unknown) {
		this.states = isObject(doc) && isObject(doc.states) ? doc.states : {};
		this.declared = declaredVariables(doc);
		this.findsOrders = readsOrders(doc);
		this.assigned = assignedVariables(doc, true);
	}

	run(): ScenarioIssue[] {
		const doc = this.doc;
		if (!isObject(doc)) return this.issues;
		this.duplicateVariables(doc);
		if (typeof doc.start === 'string') this.target(doc.start, 'start');
		let keywordsDone = false;
		walkScenario(doc, {
			template: (source, path) => this.text(source, path),
			matcher: (m, path, state) => this.matcher(m as unknown as Json, path, state),
			check: (c, path, state) => {
				const json: unknown = c;
				if (!isObject(json)) return;
				this.addCost(state, this.regex(json, path));
				this.range(json.number, `${path}.number`);
			},
			condition: (c, path) => {
				const json = c as unknown as Json;
				this.variable(json.var, `${path}.var`);
				this.range(json, path);
			},
			actions: (_list, _path, entry) => (this.list = { entry, leaving: 0 }),
			action: (a, path) => this.action(a, path),
			step: (visit, site) => this.step(visit, site),
			state: () => {
				// The keywords are walked first: their total is known once the states begin.
				if (keywordsDone) return;
				keywordsDone = true;
				this.regexBudget(this.keywordsRegexCost, 'keywords', "the keywords' regular expressions");
			},
			leaveState: (name, state, path) => this.leaveState(name, state, path),
			call: (call, path) => this.call(call as unknown as Json, path),
			menu: (menu, path) => this.issues.push(...menuIssues(menu as unknown as Json, path)),
		});
		if (!keywordsDone)
			this.regexBudget(this.keywordsRegexCost, 'keywords', "the keywords' regular expressions");
		this.issues.push(...splitIssues(doc));
		return this.issues;
	}

	private add(path: string, message: string) {
		this.issues.push({ path, message });
	}

	private duplicateVariables(doc: Json) {
		const seen = new Set<string>();
		items(doc.variables).forEach((name, i) => {
			if (typeof name !== 'string') return;
			if (seen.has(name)) this.add(`variables[${i}]`, `declares "${name}" twice`);
			seen.add(name);
		});
	}

	private target(name: unknown, path: string) {
		if (typeof name !== 'string' || name in this.states) return;
		this.add(
			path,
			`no state named "${name}"${didYouMean(name, Object.keys(this.states))} (states: ${Object.keys(this.states).join(', ')})`,
		);
	}

	private text(value: string, path: string) {
		const { template, errors } = parseTemplate(value, this.declared);
		for (const error of errors) this.add(path, error);
		const order = template.parts.find((p) => typeof p !== 'string' && p.root === 'order');
		if (order && !this.findsOrders)
			this.add(path, 'reads {{order.…}}, but no "findOrder" action looks an order up');
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

	private matcher(match: Json, path: string, state: string | undefined) {
		this.addCost(state, this.regex(match, path));
		this.range(match.number, `${path}.number`);
	}

	private addCost(state: string | undefined, cost: number) {
		if (state === undefined) this.keywordsRegexCost += cost;
		else this.stateRegexCost.set(state, (this.stateRegexCost.get(state) ?? 0) + cost);
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

	private action(action: ActionDef, at: string) {
		const json = action as unknown as Json;
		if (isObject(json.set)) {
			for (const name of Object.keys(json.set)) this.variable(name, `${at}.set.${pathKey(name)}`);
		}
		if (leaves(json)) {
			this.list.leaving++;
			if (this.list.entry)
				this.add(
					at,
					'"end" and "goto" belong on a transition (to end on entry, mark the state "end": true)',
				);
			else if (this.list.leaving === 2)
				this.add(at, 'only one "end" or "goto" may end a list of actions');
		}
		if (isObject(json.goto) && isObject(this.doc) && json.goto.scenario === this.doc.id)
			this.target(json.goto.state, `${at}.goto.state`);
	}

	/** A step's target, and its actions that may leave instead. */
	private step(visit: StepVisit, site: StepSite) {
		const owner = visit.step as unknown as Json;
		const path = site.path;
		const leaving = items(owner.actions).some(leaves);
		this.target(owner.target, `${path}.target`);
		if (leaving && owner.target !== undefined)
			this.add(
				`${path}.target`,
				'cannot be set when an action ends the conversation or jumps to another scenario',
			);
		if (site.targetRequired && !leaving && owner.target === undefined)
			this.add(`${path}.target`, 'is required (or end the conversation, or jump with "goto")');
		if (visit.kind === 'branch') this.branch(visit, site);
		if (visit.kind === 'outcome') this.outcome(visit, site);
		if (visit.kind === 'timer') {
			if (owner.send === undefined && owner.actions === undefined && owner.target === undefined)
				this.add(path, 'must send something, run actions or name a target');
		}
	}

	/** The last branch is taken when no other is: without it the state would wait for nothing. */
	private branch(visit: Extract<StepVisit, { kind: 'branch' }>, site: StepSite) {
		const when = (visit.step as unknown as Json).when;
		if (visit.last && Array.isArray(when) && when.length > 0)
			this.add(
				`${site.path}.when`,
				'must be left out on the last branch, so that one branch is always taken',
			);
		if ((visit.step as unknown as Json).target === site.state)
			this.add(`${site.path}.target`, 'cannot be the state itself (it would decide again forever)');
	}

	/** The workflow must be declared; stored fields must be among those it returns. */
	private call(call: Json, path: string) {
		const workflows = isObject(this.doc) && isObject(this.doc.workflows) ? this.doc.workflows : {};
		const name = call.workflow;
		if (typeof name !== 'string') return;
		const declared = workflows[name];
		if (!isObject(declared)) {
			const known = Object.keys(workflows);
			this.add(
				`${path}.workflow`,
				`no workflow named "${name}"${didYouMean(name, known)}; declare it in "workflows" (workflows: ${known.join(', ') || 'none'})`,
			);
			return;
		}
		if (!Array.isArray(declared.returns) || !isObject(call.store)) return;
		for (const [variable, field] of Object.entries(call.store)) {
			const first = typeof field === 'string' ? field.split('.')[0] : '';
			if (first !== '' && !declared.returns.includes(first))
				this.add(
					`${path}.store.${pathKey(variable)}`,
					`the workflow "${name}" returns no field "${first}"${didYouMean(first, declared.returns as string[])} (returns: ${declared.returns.join(', ')})`,
				);
		}
	}

	/**
	 * What a call's success says may read the fields it stored; a variable nothing ever assigns (no
	 * "store", capture or "set") is a result field used but never stored.
	 */
	private outcome(visit: Extract<StepVisit, { kind: 'outcome' }>, site: StepSite) {
		if ((visit.step as unknown as Json).target === site.state)
			this.add(`${site.path}.target`, 'cannot be the state itself (it would call again forever)');
		if (visit.outcome !== 'success') return;
		const texts: Array<[string, string]> = [];
		const say = (visit.step as unknown as Json).say;
		if (typeof say === 'string') texts.push([say, `${site.path}.say`]);
		items(visit.step.actions).forEach((a, i) => {
			if (isObject(a) && typeof a.reply === 'string')
				texts.push([a.reply, `${site.path}.actions[${i}].reply`]);
		});
		for (const [source, path] of texts) {
			for (const part of parseTemplate(source, this.declared).template.parts) {
				if (typeof part === 'string' || part.root !== 'vars') continue;
				const name = part.path[0];
				if (this.declared.has(name) && !this.assigned.has(name))
					this.add(
						path,
						`{{vars.${name}}} is never stored: add it to this call's "store" (stores: ${Object.keys(visit.call.store ?? {}).join(', ') || 'none'})`,
					);
			}
		}
	}

	private leaveState(name: string, state: StateDef, path: string) {
		const json = state as unknown as Json;
		const cost = this.stateRegexCost.get(name) ?? 0;
		if (cost > 0 && json.end !== true)
			this.regexBudget(
				cost + this.keywordsRegexCost,
				path,
				"its regular expressions (with the keywords')",
			);
		if (json.call !== undefined) {
			for (const key of ['on', 'capture', 'menu', 'after', 'choose', 'end'] as const) {
				if (json[key] !== undefined)
					this.add(
						`${path}.${key}`,
						'cannot be used with "call" (the state waits for the workflow\'s result)',
					);
			}
		}
		this.issues.push(...menuConflicts(json, path));
		if (json.end === true) {
			for (const key of ['on', 'capture', 'menu', 'after', 'fallback', 'choose'] as const) {
				if (json[key] !== undefined)
					this.add(`${path}.${key}`, 'cannot be used in an end state (the conversation is over)');
			}
		}
	}
}
