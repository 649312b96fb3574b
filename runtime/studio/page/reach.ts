import { asObject, states, type Draft, type Json } from './draft';
import type { ScenarioIssue } from './runtime-bridge';

/**
 * The studio's own warnings, read from the JSON itself so every step that names a `target` counts
 * (a menu's options included): states nothing leads to, and states that lead nowhere (no target,
 * no end, no hand-off, no goto) where a conversation would stay forever.
 */
export function reachWarnings(draft: Draft): ScenarioIssue[] {
	const all = states(draft);
	const names = Object.keys(all);
	const leads = new Map(names.map((name) => [name, targetsIn(all[name])]));
	const fromAnywhere = targetsIn(draft.keywords ?? null);
	const reached = new Set<string>();
	const queue = typeof draft.start === 'string' ? [draft.start] : [];
	for (const t of fromAnywhere) queue.push(t);
	while (queue.length) {
		const name = queue.shift() as string;
		if (reached.has(name) || !(name in all)) continue;
		reached.add(name);
		queue.push(...(leads.get(name) ?? []));
	}
	const warnings: ScenarioIssue[] = [];
	for (const name of names) {
		const path = `states.${/^[A-Za-z0-9_$-]+$/.test(name) ? name : JSON.stringify(name)}`;
		if (!reached.has(name))
			warnings.push({ path, message: 'nothing leads to this state (unreachable from the start)' });
		const state = asObject(all[name]);
		const away = [...(leads.get(name) ?? [])].some((t) => t !== name);
		if (!away && state.end !== true && !mentions(state, ['end', 'handoff', 'goto']))
			warnings.push({
				path,
				message: 'a dead end: no arrow leads out, and the state neither ends nor hands off',
			});
	}
	return warnings;
}

function targetsIn(value: Json | undefined): Set<string> {
	const found = new Set<string>();
	const walk = (v: Json | undefined) => {
		if (Array.isArray(v)) v.forEach(walk);
		else if (v && typeof v === 'object')
			for (const [key, inner] of Object.entries(v)) {
				if (key === 'target' && typeof inner === 'string' && inner) found.add(inner);
				else walk(inner);
			}
	};
	walk(value);
	return found;
}

function mentions(value: Json, keys: string[]): boolean {
	if (Array.isArray(value)) return value.some((v) => mentions(v, keys));
	if (!value || typeof value !== 'object') return false;
	return Object.entries(value).some(
		([key, inner]) => (keys.includes(key) && inner !== false) || mentions(inner, keys),
	);
}
