import type {
	ActionDef,
	Condition,
	Matcher,
	ScenarioDocument,
	TransitionDef,
} from '../format/schema';
import { walkScenario, type StepVisit } from '../format/walk';

/**
 * A Mermaid `stateDiagram-v2` of a scenario, for bot designers to review the flow: transitions
 * with what they match, captures, give-ups, timers, keywords (drawn from "any state"), ends and
 * jumps to other scenarios.
 */
export function renderDiagram(doc: ScenarioDocument): string {
	const ids = new Map<string, string>();
	const used = new Set<string>(['any_state']);
	const idOf = (name: string) => {
		let id = ids.get(name);
		if (id === undefined) {
			const base = name.replace(/[^A-Za-z0-9_]/g, '_');
			id = base;
			for (let n = 2; used.has(id); n++) id = `${base}_${n}`;
			ids.set(name, id);
			used.add(id);
		}
		return id;
	};
	const lines = ['stateDiagram-v2'];
	for (const name of Object.keys(doc.states)) {
		const id = idOf(name);
		if (id !== name) lines.push(`  state "${name}" as ${id}`);
	}
	const jumps = new Set<string>();
	const edge = (
		from: string,
		actions: ActionDef[] | undefined,
		target: string | undefined,
		label: string,
	) => {
		const leaving = actions?.find((a) => 'end' in a || 'goto' in a);
		let to: string | undefined = target === undefined ? undefined : idOf(target);
		if (leaving && 'end' in leaving) to = '[*]';
		if (leaving && 'goto' in leaving) {
			to = `goto_${leaving.goto.scenario.replace(/[^A-Za-z0-9_]/g, '_')}`;
			if (!jumps.has(to)) {
				jumps.add(to);
				lines.push(`  state "scenario ${leaving.goto.scenario}" as ${to}`);
			}
		}
		// A transition that stays and does nothing visible is left out.
		if (to === undefined && !actions?.length) return;
		lines.push(`  ${from} --> ${to ?? from} : ${clean(label)}`);
	};

	lines.push(`  [*] --> ${idOf(doc.start)}`);
	if ((doc.keywords ?? []).length > 0) lines.push('  state "(any state)" as any_state');
	walkScenario(doc, {
		state: (name, state) => {
			if (state.end) lines.push(`  ${idOf(name)} --> [*]`);
		},
		step: (visit, site) => {
			const from = site.state === undefined ? 'any_state' : idOf(site.state);
			const stay = site.state;
			const { actions, target } = visit.step;
			edge(
				from,
				actions,
				visit.kind === 'capture' || visit.kind === 'timer' ? (target ?? stay) : target,
				stepLabel(visit),
			);
		},
	});
	return `${lines.join('\n')}\n`;
}

/** What an edge says: what was matched, or which kind of step it is. */
function stepLabel(visit: StepVisit): string {
	switch (visit.kind) {
		case 'keyword':
			return `keyword ${describeTransition(visit.step)}`;
		case 'transition':
			return describeTransition(visit.step);
		case 'capture': {
			const check = visit.step.check;
			return `${visit.step.into} = valid ${typeof check === 'string' ? check : Object.keys(check)[0]}`;
		}
		case 'giveUp': {
			const retries = visit.capture.retries;
			return `invalid after ${retries} ${retries === 1 ? 'retry' : 'retries'}`;
		}
		case 'timer':
			return `after ${visit.step.minutes} min silence`;
		case 'outcome':
			return `${visit.call.workflow}: ${visit.outcome}`;
		case 'branch':
			return visit.step.when?.length
				? `if ${visit.step.when.map(describeCondition).join(' and ')}`
				: 'otherwise';
	}
}

function describeTransition(t: TransitionDef): string {
	const guard = t.when?.length ? ' [if …]' : '';
	return `${describeMatch(t.match)}${guard}`;
}

function describeMatch(m: Matcher): string {
	const words = (v: string | string[]) =>
		(Array.isArray(v) ? v : [v]).map((w) => `"${w}"`).join(' / ');
	if ('equals' in m) return words(m.equals);
	if ('contains' in m) return `contains ${words(m.contains)}`;
	if ('startsWith' in m) return `starts with ${words(m.startsWith)}`;
	if ('regex' in m) return `/${m.regex}/`;
	if ('number' in m) return `number ${m.number.min ?? '…'}..${m.number.max ?? '…'}`;
	return 'any message';
}

/** Mermaid reads ";" and "#" as syntax; labels stay on one line and short. */
function clean(label: string): string {
	const flat = label.replace(/[;#\r\n]+/g, ' ').trim();
	return flat.length > 60 ? `${flat.slice(0, 59)}…` : flat;
}

function describeCondition(c: Condition): string {
	if ('tag' in c) return `tag ${c.tag}`;
	if ('notTag' in c) return `no tag ${c.notTag}`;
	if ('order' in c) return `order ${c.order}`;
	if ('orderStatus' in c) return `order status ${[c.orderStatus].flat().join(' / ')}`;
	return `vars.${c.var} …`;
}
