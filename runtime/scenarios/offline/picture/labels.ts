import { DEFAULT_MENU_RETRIES } from '../../format/menu';
import type { StepVisit } from '../../format/walk';

/**
 * What an arrow or a box note says, in words. Read from a parsed scenario or from a half-written
 * draft (the studio's), so every reader checks the shape it gets instead of trusting the type.
 */

type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj =>
	value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : {};
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const isObj = (value: unknown): boolean => Object.keys(obj(value)).length > 0;

/** Words as written: `"yes" / "y"`. */
const quoted = (value: unknown): string =>
	(Array.isArray(value) ? value : [value ?? '']).map((v) => JSON.stringify(v)).join(' / ');

const bounds = (value: unknown): string => {
	const r = obj(value);
	return `${String(r.min ?? '…')}..${String(r.max ?? '…')}`;
};

/** Whether a list of actions ends the conversation or jumps to another scenario. */
function leaves(actions: unknown): boolean {
	return Array.isArray(actions) && actions.map(obj).some((a) => 'end' in a || 'goto' in a);
}

/** The arrow of one step: what was matched, or which kind of step it is. */
export function stepLabel(visit: StepVisit): string {
	switch (visit.kind) {
		case 'keyword':
			return `keyword ${transitionLabel(visit.step)}`;
		case 'transition':
			return transitionLabel(visit.step);
		case 'capture': {
			const step = obj(visit.step);
			const valid = `${String(step.into ?? '?')} = valid ${checkLabel(step.check)}`;
			// No target: the answer is kept and the client stays, asked nothing new (say so on the loop).
			return step.target === undefined && !leaves(step.actions) ? `${valid}, stays here` : valid;
		}
		case 'giveUp': {
			const retries = obj(visit.capture).retries;
			return `invalid after ${String(retries ?? '?')} ${retries === 1 ? 'retry' : 'retries'}`;
		}
		case 'option':
			return `${visit.index + 1}. ${String(obj(visit.step).label ?? '?')}`;
		case 'menuGiveUp': {
			const retries = obj(visit.menu).retries ?? DEFAULT_MENU_RETRIES;
			return `no option after ${String(retries)} ${retries === 1 ? 'retry' : 'retries'}`;
		}
		case 'timer':
			return `after ${String(obj(visit.step).minutes ?? '?')} min silence`;
		case 'outcome':
			return `${String(obj(visit.call).workflow ?? 'workflow')}: ${visit.outcome}`;
		case 'branch': {
			const when = conditionsLabel(obj(visit.step).when);
			return when ? `if ${when}` : 'otherwise';
		}
		case 'variant':
			return variantLabel(visit.split, visit.index);
	}
}

/** A split's arrow: the variant and its share of new clients (all of them once a winner is set). */
function variantLabel(split: unknown, index: number): string {
	const variants = list(obj(split).variants).map(obj);
	const name = String(variants[index]?.name ?? '?');
	const winner = obj(split).winner;
	if (typeof winner === 'string')
		return winner === name ? `${name} · 100% (winner)` : `${name} · 0%`;
	const weights = variants.map((v) =>
		typeof v.weight === 'number' && v.weight > 0 ? v.weight : 0,
	);
	const total = weights.reduce((a, b) => a + b, 0);
	const share = total > 0 ? (100 * weights[index]) / total : 0;
	return `${name} · ${Number(share.toFixed(1))}%`;
}

function transitionLabel(step: unknown): string {
	const t = obj(step);
	const when = conditionsLabel(t.when);
	return `${matchLabel(t.match)}${when ? ` if ${when}` : ''}`;
}

function matchLabel(value: unknown): string {
	const m = obj(value);
	if ('equals' in m) return quoted(m.equals);
	if ('contains' in m) return `contains ${quoted(m.contains)}`;
	if ('startsWith' in m) return `starts with ${quoted(m.startsWith)}`;
	if ('regex' in m) return `/${String(m.regex)}/`;
	if ('number' in m) return `number ${bounds(m.number)}`;
	if (m.any === true) return 'any message';
	return '?';
}

/** Every condition of a guard joined with "and"; empty when there is none. */
function conditionsLabel(value: unknown): string {
	return list(value).map(conditionLabel).join(' and ');
}

function conditionLabel(value: unknown): string {
	const c = obj(value);
	if ('tag' in c) return `tag ${String(c.tag)}`;
	if ('notTag' in c) return `no tag ${String(c.notTag)}`;
	if ('orderStatus' in c) return `order status ${[c.orderStatus].flat().join(' / ')}`;
	if ('order' in c) return `order ${String(c.order)}`;
	if (!('var' in c)) return '?';
	const name = `vars.${String(c.var)}`;
	if ('equals' in c) return `${name} = ${quoted(c.equals)}`;
	if ('notEquals' in c) return `${name} ≠ ${quoted(c.notEquals)}`;
	if ('min' in c || 'max' in c) return `${name} in ${bounds(c)}`;
	return c.set === false ? `${name} not set` : `${name} set`;
}

function checkLabel(value: unknown): string {
	if (typeof value === 'string') return value;
	const check = obj(value);
	if ('oneOf' in check) return `one of ${quoted(check.oneOf)}`;
	if ('number' in check) return `number ${bounds(check.number)}`;
	return Object.keys(check)[0] ?? '?';
}

/** A state's notes: what it asks, calls, does on entry and when it reminds. */
export function stateNotes(state: unknown): string[] {
	const s = obj(state);
	const notes: string[] = [];
	if (isObj(s.capture)) {
		const capture = obj(s.capture);
		notes.push(`asks ${String(capture.into ?? '?')} (${checkLabel(capture.check)})`);
	}
	if (isObj(s.menu)) {
		const count = list(obj(s.menu).options).length;
		notes.push(`menu of ${count} option${count === 1 ? '' : 's'}`);
	}
	if (isObj(s.call)) notes.push(`calls ${String(obj(s.call).workflow ?? '?')}`);
	if (isObj(s.split)) notes.push(splitNote(obj(s.split)));
	for (const action of list(s.actions)) notes.push(actionLabel(action));
	if (isObj(s.after)) notes.push(`reminder after ${String(obj(s.after).minutes ?? '?')} min`);
	return notes;
}

function splitNote(split: Obj): string {
	const goal = obj(split.goal);
	const name = typeof split.name === 'string' ? ` ${split.name}` : '';
	if ('state' in goal) return `split test${name}, goal: ${String(goal.state)}`;
	if ('tag' in goal) return `split test${name}, goal: +tag ${String(goal.tag)}`;
	return `split test${name}`;
}

function actionLabel(value: unknown): string {
	const action = obj(value);
	const [key] = Object.keys(action);
	if (key === 'addTags' || key === 'removeTags')
		return `${key === 'addTags' ? '+' : '−'}tags ${list(action[key]).join(', ')}`;
	if (key === 'reply') return `reply "${String(action.reply)}"`;
	if (key === 'set') return `set ${Object.keys(obj(action.set)).join(', ')}`;
	if (key === 'handoff') return 'hands off to a person';
	if (key === 'findOrder') return `finds order ${String(action.findOrder)}`;
	if (key === 'goto') return `goes to scenario ${String(obj(action.goto).scenario)}`;
	return key ?? '?';
}
