import { getOrCreate } from '../../per-process';

/**
 * The states a conversation reached in its run, each with the UTC day it first did, as kept on
 * its record: one string, the states grouped by day in the order reached,
 * `@2026-11-28|welcome|ask_email|@2026-11-29|lookup|` (names URI-encoded, so `@` and `|` are free).
 * The record is parsed and written again at every write of a step, and an object keyed by state
 * made that JSON the largest cost the counters added; a string costs far less to parse and write,
 * and a state is looked up in it without taking it apart.
 *
 * Records written before this form hold an object (state → day): read as well, and written in
 * this form at their next step.
 */
export type Reached = string;
/** The form of records written before (state → day). */
export type ReachedBefore = Readonly<Record<string, string>>;

// A state's name as it sits between bars: made once per state (at most 10,000 kept).
const tokens = new Map<string, string>();

/** How `state` sits in a reached string (`|name|`): what a lookup of it searches for. */
export function token(state: string): string {
	return getOrCreate(tokens, state, () => `|${encodeURIComponent(state)}|`, 10_000);
}

/** The day `state` was first reached, if it was. */
export function reachedDay(
	reached: Reached | ReachedBefore | undefined,
	state: string,
): string | undefined {
	if (reached === undefined) return undefined;
	if (typeof reached !== 'string') return reached[state];
	const at = reached.indexOf(token(state));
	if (at < 0) return undefined;
	const group = reached.lastIndexOf('@', at);
	return reached.slice(group + 1, group + 11);
}

/** `reached` with `state` first reached on `day` (not in it yet). */
export function withReached(reached: Reached, state: string, day: string): Reached {
	const group = reached.lastIndexOf('@');
	if (group >= 0 && reached.startsWith(day, group + 1)) return reached + token(state).slice(1);
	return `${reached}@${day}${token(state)}`;
}

/** A record's reached states in this form, whichever it was written in. */
export function reachedNow(reached: Reached | ReachedBefore | undefined): Reached {
	if (reached === undefined) return '';
	if (typeof reached === 'string') return reached;
	const byDay = new Map<string, string[]>();
	for (const [state, day] of Object.entries(reached)) {
		const states = byDay.get(day) ?? [];
		states.push(state);
		byDay.set(day, states);
	}
	let text = '';
	for (const [day, states] of [...byDay].sort(([a], [b]) => (a < b ? -1 : 1)))
		for (const state of states) text = withReached(text, state, day);
	return text;
}
