import { asArray, asObject, asText, isObject, states, type Draft, type Json } from './draft';

/**
 * The scenario as boxes and labelled arrows: every way a conversation moves (a match, a
 * condition, a capture's check and give-up, a timer, each branch of a choice or a workflow call,
 * keywords from any state), read from the draft however incomplete it is.
 */

export const START = '__start';
export const END = '__end';
export const ANY = '__any';

export type EdgeKind =
	| 'start'
	| 'on'
	| 'keyword'
	| 'capture'
	| 'giveUp'
	| 'after'
	| 'choose'
	| 'call'
	| 'end'
	| 'goto';

export interface GraphEdge {
	id: string;
	source: string;
	target: string;
	label: string;
	kind: EdgeKind;
}

export interface StateBox {
	name: string;
	messages: string[];
	/** One line each: capture, call, timer, actions. */
	notes: string[];
	start: boolean;
	end: boolean;
}

export interface ScenarioGraph {
	boxes: StateBox[];
	edges: GraphEdge[];
	/** Whether the keywords' "(any state)" box is drawn. */
	any: boolean;
}

export function scenarioGraph(draft: Draft): ScenarioGraph {
	const edges: GraphEdge[] = [];
	const add = (
		source: string,
		target: Json | undefined,
		label: string,
		kind: EdgeKind,
		key: string,
	) => {
		if (typeof target === 'string')
			edges.push({ id: `${source}|${key}`, source, target, label, kind });
	};
	const boxes: StateBox[] = [];
	const start = asText(draft.start);
	if (start) add(START, start, '', 'start', 'start');
	for (const [i, keyword] of asArray(draft.keywords).entries()) {
		const k = asObject(keyword);
		const label = `keyword ${matchLabel(k.match)}`;
		add(ANY, k.target, label, 'keyword', `kw${i}`);
		if (endsIn(k.actions)) add(ANY, END, label, 'end', `kw${i}end`);
	}
	for (const [name, value] of Object.entries(states(draft))) {
		const state = asObject(value);
		boxes.push(box(name, state, name === start));
		stateEdges(name, state, add);
	}
	return { boxes, edges, any: asArray(draft.keywords).length > 0 };
}

type Add = (
	source: string,
	target: Json | undefined,
	label: string,
	kind: EdgeKind,
	key: string,
) => void;

function stateEdges(name: string, state: Record<string, Json>, add: Add): void {
	if (state.end === true || endsIn(state.actions)) add(name, END, '', 'end', 'end');
	gotoEdges(name, state.actions, add, 'entry');
	for (const [i, t] of asArray(state.on).entries()) {
		const transition = asObject(t);
		const label = [matchLabel(transition.match), whenLabel(transition.when)]
			.filter(Boolean)
			.join(' ');
		add(name, transition.target, label, 'on', `on${i}`);
		if (endsIn(transition.actions)) add(name, END, label, 'end', `on${i}end`);
		gotoEdges(name, transition.actions, add, `on${i}`);
	}
	const capture = asObject(state.capture);
	if (isObject(state.capture)) {
		add(
			name,
			capture.target,
			`${asText(capture.into) ?? '?'} = valid ${checkLabel(capture.check)}`,
			'capture',
			'capture',
		);
		const giveUp = asObject(capture.giveUp);
		const retries = typeof capture.retries === 'number' ? capture.retries : '?';
		add(name, giveUp.target, `invalid after ${retries} retries`, 'giveUp', 'giveUp');
		if (endsIn(giveUp.actions))
			add(name, END, `invalid after ${retries} retries`, 'end', 'giveUpEnd');
	}
	if (isObject(state.after)) {
		const after = asObject(state.after);
		add(
			name,
			after.target ?? name,
			`after ${String(after.minutes ?? '?')} min silence`,
			'after',
			'after',
		);
	}
	for (const [i, b] of asArray(state.choose).entries()) {
		const branch = asObject(b);
		add(
			name,
			branch.target,
			branch.when ? `if ${whenLabel(branch.when).replace(/^if /, '')}` : 'otherwise',
			'choose',
			`choose${i}`,
		);
	}
	const call = asObject(state.call);
	for (const outcome of ['success', 'empty', 'failure', 'timeout']) {
		const branch = asObject(call[outcome]);
		add(
			name,
			branch.target,
			`${asText(call.workflow) ?? 'workflow'}: ${outcome}`,
			'call',
			`call-${outcome}`,
		);
		if (endsIn(branch.actions))
			add(
				name,
				END,
				`${asText(call.workflow) ?? 'workflow'}: ${outcome}`,
				'end',
				`call-${outcome}-end`,
			);
	}
}

function gotoEdges(name: string, actions: Json | undefined, add: Add, key: string): void {
	for (const action of asArray(actions)) {
		const goto = asObject(asObject(action).goto);
		if (typeof goto.scenario === 'string')
			add(
				name,
				END,
				`goto ${goto.scenario}${goto.state ? `.${String(goto.state)}` : ''}`,
				'goto',
				`${key}goto`,
			);
	}
}

function endsIn(actions: Json | undefined): boolean {
	return asArray(actions).some((a) => asObject(a).end === true);
}

function box(name: string, state: Record<string, Json>, start: boolean): StateBox {
	const notes: string[] = [];
	const capture = asObject(state.capture);
	if (isObject(state.capture))
		notes.push(`asks ${asText(capture.into) ?? '?'} (${checkLabel(capture.check)})`);
	const call = asObject(state.call);
	if (isObject(state.call)) notes.push(`calls ${asText(call.workflow) ?? '?'}`);
	for (const action of asArray(state.actions)) notes.push(actionLabel(action));
	if (isObject(state.after))
		notes.push(`reminder after ${String(asObject(state.after).minutes ?? '?')} min`);
	return {
		name,
		messages: asArray(state.messages).map((m) => (typeof m === 'string' ? m : JSON.stringify(m))),
		notes,
		start,
		end: state.end === true,
	};
}

const quoted = (value: Json | undefined) =>
	asArray(Array.isArray(value) ? value : [value ?? ''])
		.map((v) => JSON.stringify(v))
		.join(' / ');

export function matchLabel(value: Json | undefined): string {
	const match = asObject(value);
	if (match.any === true) return 'any message';
	if ('equals' in match) return quoted(match.equals);
	if ('contains' in match) return `contains ${quoted(match.contains)}`;
	if ('startsWith' in match) return `starts with ${quoted(match.startsWith)}`;
	if ('regex' in match) return `/${String(match.regex)}/`;
	if (isObject(match.number)) return `number ${range(match.number)}`;
	return '?';
}

function range(value: Json): string {
	const r = asObject(value);
	return `${r.min ?? ''}…${r.max ?? ''}`;
}

function whenLabel(value: Json | undefined): string {
	const parts = asArray(value).map((c) => {
		const g = asObject(c);
		if ('tag' in g) return `tag ${String(g.tag)}`;
		if ('notTag' in g) return `no tag ${String(g.notTag)}`;
		if ('var' in g) return `${String(g.var)}${'equals' in g ? ` = ${quoted(g.equals)}` : ' set'}`;
		if ('order' in g) return `order ${String(g.order)}`;
		if ('orderStatus' in g) return `order status ${quoted(g.orderStatus)}`;
		return '?';
	});
	return parts.length ? `if ${parts.join(' and ')}` : '';
}

function checkLabel(value: Json | undefined): string {
	if (typeof value === 'string') return value;
	const check = asObject(value);
	if ('regex' in check) return 'regex';
	if ('oneOf' in check) return `one of ${quoted(check.oneOf)}`;
	if ('number' in check) return `number ${range(check.number)}`;
	return '?';
}

function actionLabel(value: Json): string {
	const action = asObject(value);
	const [key] = Object.keys(action);
	if (key === 'addTags' || key === 'removeTags')
		return `${key === 'addTags' ? '+' : '−'}tags ${asArray(action[key]).join(', ')}`;
	if (key === 'reply') return `reply "${String(action.reply)}"`;
	if (key === 'set') return `set ${Object.keys(asObject(action.set)).join(', ')}`;
	if (key === 'handoff') return 'hands off to a person';
	if (key === 'findOrder') return `finds order ${String(action.findOrder)}`;
	return key ?? '?';
}
