import type { ActionDef, Matcher, ScenarioDocument, TransitionDef } from './schema';

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
	const keywords = doc.keywords ?? [];
	if (keywords.length > 0) lines.push('  state "(any state)" as any_state');
	for (const t of keywords)
		edge('any_state', t.actions, t.target, `keyword ${describeTransition(t)}`);
	for (const [name, state] of Object.entries(doc.states)) {
		const id = idOf(name);
		if (state.end) lines.push(`  ${id} --> [*]`);
		for (const t of state.on ?? []) edge(id, t.actions, t.target, describeTransition(t));
		const capture = state.capture;
		if (capture) {
			const check =
				typeof capture.check === 'string' ? capture.check : Object.keys(capture.check)[0];
			edge(id, capture.actions, capture.target ?? name, `${capture.into} = valid ${check}`);
			edge(
				id,
				capture.giveUp.actions,
				capture.giveUp.target,
				`invalid after ${capture.retries} ${capture.retries === 1 ? 'retry' : 'retries'}`,
			);
		}
		if (state.after)
			edge(
				id,
				state.after.actions,
				state.after.target ?? name,
				`after ${state.after.minutes} min silence`,
			);
	}
	return `${lines.join('\n')}\n`;
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
