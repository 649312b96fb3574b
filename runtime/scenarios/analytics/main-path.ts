import type { ActionDef, ScenarioDocument } from '../format/schema';
import { walkScenario, type StepVisit } from '../format/walk';
import { END_STATE } from '../machine/setup';

/** A scenario's states for the analytics reading: its main path first, then the others. */
export function stateOrder(doc: ScenarioDocument): { mainPath: string[]; states: string[] } {
	const path = mainPath(doc);
	const rest = Object.keys(doc.states).filter((name) => !path.includes(name));
	return { mainPath: path, states: [...path, ...rest] };
}

/**
 * A scenario's main path, for a funnel: from the start, each state's first way forward (an
 * answer accepted, a match, a branch, a call's success) to a state not yet on the path, until an
 * end. Give-ups, timers, keywords and failures are side ways, taken only when nothing else leads
 * on. The conversation's end is the path's last step when a state ends it.
 */
function mainPath(doc: ScenarioDocument): string[] {
	const ways = new Map<string, Array<{ to: string; side: boolean }>>();
	walkScenario(doc, {
		step: (visit, site) => {
			const to = targetOf(visit);
			if (site.state === undefined || to === undefined) return;
			const list = ways.get(site.state) ?? [];
			list.push({ to, side: isSide(visit) });
			ways.set(site.state, list);
		},
	});
	const path: string[] = [];
	let at: string | undefined = doc.start;
	while (at !== undefined && !path.includes(at)) {
		path.push(at);
		if (at === END_STATE) break;
		if (doc.states[at]?.end) break;
		const options: Array<{ to: string; side: boolean }> = (ways.get(at) ?? []).filter(
			(way) => !path.includes(way.to),
		);
		at = (options.find((way) => !way.side) ?? options[0])?.to;
	}
	return path;
}

function isSide(visit: StepVisit): boolean {
	if (visit.kind === 'giveUp' || visit.kind === 'timer' || visit.kind === 'keyword') return true;
	return visit.kind === 'outcome' && visit.outcome !== 'success';
}

/** Where a step leads in this scenario: its target, or the end; a jump leaves it. */
function targetOf(visit: StepVisit): string | undefined {
	const step = visit.step as { target?: string; actions?: ActionDef[] };
	if (step.actions?.some((a) => 'goto' in a)) return undefined;
	if (step.actions?.some((a) => 'end' in a)) return END_STATE;
	return step.target;
}
