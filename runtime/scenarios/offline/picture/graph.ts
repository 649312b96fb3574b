import { walkScenario, type StepVisit } from '../../format/walk';
import { stateNotes, stepLabel } from './labels';

/**
 * The scenario as boxes and labelled arrows: every way a conversation moves (a match, a
 * condition, a capture's check and give-up, a menu's options, a timer, each branch of a choice or a workflow call, each variant of a split with its share,
 * keywords from any state), listed once from the format's walk. The Mermaid text, the SVG picture
 * and the studio all draw this; it reads a half-written draft as well as a parsed scenario.
 */

export const START = '__start';
export const END = '__end';
export const ANY = '__any';

export type EdgeKind =
	| 'start'
	| 'on'
	| 'keyword'
	| 'capture'
	| 'menu'
	| 'giveUp'
	| 'after'
	| 'choose'
	| 'split'
	| 'call'
	| 'end';

export interface GraphEdge {
	id: string;
	source: string;
	target: string;
	/** What the step matches or which kind of step it is. */
	label: string;
	kind: EdgeKind;
	/** The scenario (and state) a "goto" action jumps to; the arrow then ends at END. */
	jump?: string;
}

export interface StateBox {
	name: string;
	messages: string[];
	/** One line each: capture, call, actions, timer. */
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

const KIND: Record<StepVisit['kind'], EdgeKind> = {
	keyword: 'keyword',
	transition: 'on',
	capture: 'capture',
	giveUp: 'giveUp',
	option: 'menu',
	menuGiveUp: 'giveUp',
	timer: 'after',
	branch: 'choose',
	variant: 'split',
	outcome: 'call',
};

type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj =>
	value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : {};
const text = (value: unknown): string | undefined =>
	typeof value === 'string' ? value : undefined;

/** The words on an arrow as drawn: its label, and where a jump leads. */
export function edgeText(edge: GraphEdge): string {
	return edge.jump ? `${edge.label ? `${edge.label} ` : ''}→ scenario ${edge.jump}` : edge.label;
}

export function scenarioGraph(doc: unknown): ScenarioGraph {
	const start = text(obj(doc).start);
	const boxes: StateBox[] = [];
	const edges: GraphEdge[] = [];
	if (start) edges.push({ id: 'start', source: START, target: start, label: '', kind: 'start' });
	walkScenario(doc, {
		state: (name, state, path) => {
			const messages = Array.isArray(state.messages) ? state.messages : [];
			boxes.push({
				name,
				messages: messages.map((m: unknown) => (typeof m === 'string' ? m : JSON.stringify(m))),
				notes: stateNotes(state),
				start: name === start,
				end: state.end === true,
			});
			if (state.end === true)
				edges.push({ id: `${path}.end`, source: name, target: END, label: '', kind: 'end' });
		},
		step: (visit, site) => {
			const edge = stepEdge(visit, site.state, site.path);
			if (edge) edges.push(edge);
		},
	});
	return { boxes, edges, any: edges.some((edge) => edge.source === ANY) };
}

/** Where a step leads: the end, another scenario, its target, or (capture, timer) its state. */
function stepEdge(
	visit: StepVisit,
	state: string | undefined,
	path: string,
): GraphEdge | undefined {
	const step = obj(visit.step);
	const actions = Array.isArray(step.actions) ? step.actions.map(obj) : [];
	const leaving = actions.find((a) => 'end' in a || 'goto' in a);
	const stays = visit.kind === 'capture' || visit.kind === 'timer';
	let target = text(step.target) ?? (stays ? state : undefined);
	let jump: string | undefined;
	if (leaving && 'end' in leaving) target = END;
	if (leaving && 'goto' in leaving) {
		const goto = obj(leaving.goto);
		target = END;
		jump = `${String(goto.scenario ?? '?')}${text(goto.state) ? `.${String(goto.state)}` : ''}`;
	}
	// A step that stays and does nothing visible is left out; one with actions loops.
	if (target === undefined && actions.length === 0) return undefined;
	const source = state ?? ANY;
	const edge: GraphEdge = {
		id: path,
		source,
		target: target ?? source,
		label: stepLabel(visit),
		kind: KIND[visit.kind],
	};
	return jump === undefined ? edge : { ...edge, jump };
}
