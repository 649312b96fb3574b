import { asArray, clone, isObject, states, type Draft, type Json, type JsonObject } from './draft';

/** Edits of the scenario's states; each returns a new draft and leaves the one given unchanged. */

export function freeName(draft: Draft, base = 'new_state'): string {
	const taken = states(draft);
	if (!(base in taken)) return base;
	for (let n = 2; ; n++) if (!(`${base}_${n}` in taken)) return `${base}_${n}`;
}

export function addState(draft: Draft, name: string): Draft {
	const next = clone(draft);
	next.states = { ...states(next), [name]: { messages: ['…'] } };
	return next;
}

export function setState(draft: Draft, name: string, state: JsonObject): Draft {
	const next = clone(draft);
	next.states = { ...states(next), [name]: state };
	return next;
}

/** Renames a state where it stands in the order, and every reference to it follows. */
export function renameState(draft: Draft, from: string, to: string): Draft {
	const next = clone(draft);
	next.states = Object.fromEntries(
		Object.entries(states(next)).map(([key, value]) => [key === from ? to : key, value]),
	);
	if (next.start === from) next.start = to;
	const id = next.id;
	retarget(next.keywords ?? null, from, to, id);
	retarget(next.states, from, to, id);
	return next;
}

/** Every `target` naming the state, and every `goto` to it within this scenario. */
function retarget(value: Json, from: string, to: string, id: Json | undefined): void {
	if (Array.isArray(value)) {
		for (const item of value) retarget(item, from, to, id);
		return;
	}
	if (!isObject(value)) return;
	for (const [key, child] of Object.entries(value)) {
		if (key === 'target' && child === from) value[key] = to;
		else if (key === 'goto' && isObject(child) && child.scenario === id && child.state === from)
			child.state = to;
		else retarget(child, from, to, id);
	}
}

/** Deletes a state; transitions that led to it stay, listed as problems until changed. */
export function deleteState(draft: Draft, name: string): Draft {
	const next = clone(draft);
	const rest = { ...states(next) };
	delete rest[name];
	next.states = rest;
	return next;
}

/** A transition from one state to another, taken on any message: the designer narrows it after. */
export function connect(draft: Draft, from: string, to: string): Draft {
	const next = clone(draft);
	const state = states(next)[from];
	if (!isObject(state)) return draft;
	state.on = [...asArray(state.on), { match: { any: true }, target: to }];
	return next;
}

/** The same scenario with `version` raised past the saved one when anything else changed. */
export function withVersionRaised(draft: Draft, saved: Draft | undefined): Draft {
	if (!saved) return draft;
	const before = saved.version;
	const unversioned = (d: Draft) => JSON.stringify({ ...d, version: 0 });
	if (unversioned(draft) === unversioned(saved)) return draft;
	const base = typeof before === 'number' ? before : 0;
	if (typeof draft.version === 'number' && draft.version > base) return draft;
	return { ...draft, version: base + 1 };
}
