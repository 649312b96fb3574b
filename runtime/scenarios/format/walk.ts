import type {
	ActionDef,
	BranchDef,
	CallDef,
	CallOutcome,
	CaptureDef,
	Check,
	Condition,
	Matcher,
	MenuDef,
	MenuOption,
	ScenarioDocument,
	SplitDef,
	SplitVariant,
	StateDef,
	TimerDef,
	TransitionDef,
} from './schema';

/**
 * The one walk over a scenario document: every place that holds a template, an action list, a
 * step (something with actions and a target), a matcher or a guard, each with its JSON path.
 * Validation, the compiler's "does it read the client" check and the diagram all visit through
 * here, so a new field of the format is taught in this file.
 *
 * On a parsed document the types are exact. The rule checker also walks raw input (to report
 * every problem at once): then only objects and lists are followed, strings are the only
 * templates handed out, and visitors check the leaf values they read.
 */

/** Where a step sits: in the keywords, or in a state's transitions, capture, menu or timer. */
export type StepVisit =
	| { kind: 'keyword'; step: TransitionDef }
	| { kind: 'transition'; step: TransitionDef }
	| { kind: 'capture'; step: CaptureDef }
	| { kind: 'giveUp'; step: CaptureDef['giveUp']; capture: CaptureDef }
	| { kind: 'timer'; step: TimerDef }
	| { kind: 'option'; step: MenuOption; index: number; menu: MenuDef }
	| { kind: 'menuGiveUp'; step: NonNullable<MenuDef['giveUp']>; menu: MenuDef }
	| { kind: 'branch'; step: BranchDef; index: number; last: boolean }
	| { kind: 'variant'; step: SplitVariant; index: number; split: SplitDef }
	| { kind: 'outcome'; step: CallDef['success']; outcome: CallOutcome; call: CallDef };

export interface StepSite {
	path: string;
	/** The state it belongs to; undefined for keywords. */
	state: string | undefined;
	/** A step that must leave: name a target, end or jump. */
	targetRequired: boolean;
}

export interface ScenarioVisitor {
	/** A state, before its parts. */
	state?(name: string, state: StateDef, path: string): void;
	/** A state, after its parts. */
	leaveState?(name: string, state: StateDef, path: string): void;
	/** Every text the bot sends or a variable is set to. */
	template?(source: string, path: string): void;
	/** An action list; `entry` lists run on entering a state and may not leave it. */
	actions?(list: ActionDef[], path: string, entry: boolean): void;
	action?(action: ActionDef, path: string): void;
	step?(visit: StepVisit, site: StepSite): void;
	matcher?(matcher: Matcher, path: string, state: string | undefined): void;
	check?(check: Check, path: string, state: string): void;
	condition?(condition: Condition, path: string): void;
	/** A state's menu, before its options. */
	menu?(menu: MenuDef, path: string, state: string): void;
	/** A state's workflow call, before its inputs and outcomes. */
	call?(call: CallDef, path: string, state: string): void;
}

const CALL_OUTCOMES: readonly CallOutcome[] = ['success', 'empty', 'failure', 'timeout'];

type Json = Record<string, unknown>;
export const isObject = (value: unknown): value is Json =>
	value !== null && typeof value === 'object' && !Array.isArray(value);
export const items = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** A key as it appears in a path: bare when plain, quoted otherwise. */
export function pathKey(key: string): string {
	return /^[A-Za-z0-9_$-]+$/.test(key) ? key : JSON.stringify(key);
}

export function walkScenario(doc: ScenarioDocument | unknown, visitor: ScenarioVisitor): void {
	if (!isObject(doc)) return;
	new Walk(visitor).document(doc);
}

class Walk {
	constructor(private readonly v: ScenarioVisitor) {}

	document(doc: Json) {
		this.template(doc.fallback, 'fallback');
		items(doc.keywords).forEach((t, i) =>
			this.transition(t, `keywords[${i}]`, undefined, 'keyword'),
		);
		const states = isObject(doc.states) ? doc.states : {};
		for (const [name, state] of Object.entries(states)) {
			if (isObject(state)) this.state(name, state, `states.${pathKey(name)}`);
		}
	}

	private template(value: unknown, path: string) {
		if (typeof value === 'string') this.v.template?.(value, path);
	}

	private templates(value: unknown, path: string) {
		if (Array.isArray(value)) value.forEach((t, i) => this.template(t, `${path}[${i}]`));
		else this.template(value, path);
	}

	private actions(list: unknown, path: string, entry: boolean) {
		if (!Array.isArray(list)) return;
		this.v.actions?.(list as ActionDef[], path, entry);
		list.forEach((action, i) => {
			if (!isObject(action)) return;
			const at = `${path}[${i}]`;
			this.v.action?.(action as ActionDef, at);
			this.template(action.reply, `${at}.reply`);
			if (isObject(action.set)) {
				for (const [name, value] of Object.entries(action.set))
					this.template(value, `${at}.set.${pathKey(name)}`);
			}
		});
	}

	/** Its actions, then the step itself (its target): what every step has. */
	private step(visit: StepVisit, site: StepSite) {
		this.actions((visit.step as Json).actions, `${site.path}.actions`, false);
		this.v.step?.(visit, site);
	}

	private transition(
		t: unknown,
		path: string,
		state: string | undefined,
		kind: 'keyword' | 'transition',
	) {
		if (!isObject(t)) return;
		if (isObject(t.match)) this.v.matcher?.(t.match as Matcher, `${path}.match`, state);
		items(t.when).forEach((c, i) => {
			if (isObject(c)) this.v.condition?.(c as Condition, `${path}.when[${i}]`);
		});
		const step = t as TransitionDef;
		const visit: StepVisit = kind === 'keyword' ? { kind, step } : { kind: 'transition', step };
		this.step(visit, { path, state, targetRequired: false });
	}

	private state(name: string, state: Json, path: string) {
		this.v.state?.(name, state as StateDef, path);
		this.templates(state.messages, `${path}.messages`);
		this.actions(state.actions, `${path}.actions`, true);
		items(state.on).forEach((t, i) => this.transition(t, `${path}.on[${i}]`, name, 'transition'));
		this.template(state.fallback, `${path}.fallback`);
		if (isObject(state.capture)) this.capture(name, state.capture, `${path}.capture`);
		if (isObject(state.after)) {
			const after = state.after;
			this.templates(after.send, `${path}.after.send`);
			this.step(
				{ kind: 'timer', step: after as TimerDef },
				{ path: `${path}.after`, state: name, targetRequired: false },
			);
		}
		if (isObject(state.menu)) this.menu(name, state.menu, `${path}.menu`);
		if (isObject(state.call)) this.call(name, state.call, `${path}.call`);
		const branches = items(state.choose);
		branches.forEach((b, i) => {
			if (isObject(b)) this.branch(name, b, `${path}.choose[${i}]`, i, i === branches.length - 1);
		});
		if (isObject(state.split)) this.split(name, state.split, `${path}.split`);
		this.v.leaveState?.(name, state as StateDef, path);
	}

	private split(state: string, split: Json, path: string) {
		items(split.variants).forEach((variant, index) => {
			if (!isObject(variant)) return;
			const visit: StepVisit = {
				kind: 'variant',
				step: variant as SplitVariant,
				index,
				split: split as SplitDef,
			};
			this.step(visit, { path: `${path}.variants[${index}]`, state, targetRequired: true });
		});
	}

	private call(state: string, call: Json, path: string) {
		this.v.call?.(call as CallDef, path, state);
		if (isObject(call.inputs)) {
			for (const [name, value] of Object.entries(call.inputs))
				this.template(value, `${path}.inputs.${pathKey(name)}`);
		}
		for (const outcome of CALL_OUTCOMES) {
			const branch = call[outcome];
			if (!isObject(branch)) continue;
			this.template(branch.say, `${path}.${outcome}.say`);
			this.step(
				{ kind: 'outcome', step: branch, outcome, call: call as CallDef },
				{ path: `${path}.${outcome}`, state, targetRequired: true },
			);
		}
	}

	private menu(state: string, menu: Json, path: string) {
		const typed = menu as MenuDef;
		this.v.menu?.(typed, path, state);
		this.template(menu.text, `${path}.text`);
		this.template(menu.retry, `${path}.retry`);
		items(menu.options).forEach((option, index) => {
			if (!isObject(option)) return;
			this.step(
				{ kind: 'option', step: option as MenuOption, index, menu: typed },
				{ path: `${path}.options[${index}]`, state, targetRequired: false },
			);
		});
		if (isObject(menu.giveUp)) {
			this.template(menu.giveUp.say, `${path}.giveUp.say`);
			this.step(
				{ kind: 'menuGiveUp', step: menu.giveUp, menu: typed },
				{ path: `${path}.giveUp`, state, targetRequired: true },
			);
		}
	}

	private branch(state: string, b: Json, path: string, index: number, last: boolean) {
		items(b.when).forEach((c, i) => {
			if (isObject(c)) this.v.condition?.(c as Condition, `${path}.when[${i}]`);
		});
		this.template(b.say, `${path}.say`);
		this.step(
			{ kind: 'branch', step: b as BranchDef, index, last },
			{ path, state, targetRequired: true },
		);
	}

	private capture(state: string, capture: Json, path: string) {
		if (isObject(capture.check) || typeof capture.check === 'string')
			this.v.check?.(capture.check as Check, `${path}.check`, state);
		this.template(capture.retry, `${path}.retry`);
		const typed = capture as CaptureDef;
		this.step({ kind: 'capture', step: typed }, { path, state, targetRequired: false });
		if (isObject(capture.giveUp)) {
			this.template(capture.giveUp.say, `${path}.giveUp.say`);
			this.step(
				{ kind: 'giveUp', step: typed.giveUp, capture: typed },
				{ path: `${path}.giveUp`, state, targetRequired: true },
			);
		}
	}
}

/** Every action of a scenario with its path. */
export function forEachAction(
	doc: ScenarioDocument,
	visit: (action: ActionDef, path: string) => void,
): void {
	walkScenario(doc, { action: visit });
}
