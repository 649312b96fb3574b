import type { ScenarioDocument } from '../format/schema';
import { ANY, END, START, scenarioGraph } from './picture/graph';

/**
 * A Mermaid `stateDiagram-v2` of a scenario, for bot designers to review the flow: the arrows of
 * the scenario graph (transitions with what they match, captures, give-ups, timers, workflow
 * outcomes, choices, keywords drawn from "any state"), ends and jumps to other scenarios.
 */
export function renderDiagram(doc: ScenarioDocument): string {
	const ids = new Map<string, string>([
		[START, '[*]'],
		[END, '[*]'],
		[ANY, 'any_state'],
	]);
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
	const graph = scenarioGraph(doc);
	const lines = ['stateDiagram-v2'];
	for (const { name } of graph.boxes) {
		const id = idOf(name);
		if (id !== name) lines.push(`  state "${name}" as ${id}`);
	}
	const jumps = new Set<string>();
	for (const edge of graph.edges) {
		let to = idOf(edge.target);
		if (edge.jump !== undefined) {
			to = `goto_${edge.jump.replace(/[^A-Za-z0-9_]/g, '_')}`;
			if (!jumps.has(to)) lines.push(`  state "scenario ${edge.jump}" as ${to}`);
			jumps.add(to);
		}
		const label = edge.label ? ` : ${clean(edge.label)}` : '';
		lines.push(`  ${idOf(edge.source)} --> ${to}${label}`);
		if (edge.source === START && graph.any) lines.push('  state "(any state)" as any_state');
	}
	return `${lines.join('\n')}\n`;
}

/** Mermaid reads ";" and "#" as syntax; labels stay on one line and short. */
function clean(label: string): string {
	const flat = label.replace(/[;#\r\n]+/g, ' ').trim();
	return flat.length > 60 ? `${flat.slice(0, 59)}…` : flat;
}
