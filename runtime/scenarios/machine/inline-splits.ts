import { and } from 'xstate';

import type { ActionConfig, AlwaysConfig, StateConfig } from './setup';

/**
 * Arrows into a split state taken straight to the variant's state, in the same microstep: the
 * split's entry (its visit among them) and the variant's arrow are run as the arrow's own
 * actions, in the order the machine ran them, so the step's effects, visits and counts are the
 * same; what goes is xstate's second microstep through a state that waits for nothing (a snapshot
 * copied, the eventless arrows looked up), the machine's share of a split's cost. The split state
 * stays in the machine, with its own arrows, for a conversation stored in it; and each arrow into
 * it is kept last, for a client none of the inlined arrows takes.
 */

/** A split state as built: its entry and its eventless arrows (split.ts's `splitMoves`). */
export interface BuiltSplit {
	entry: ActionConfig[];
	always: AlwaysConfig[];
}

type Arrow = {
	target?: unknown;
	guard?: unknown;
	actions?: unknown;
	reenter?: boolean;
};

/** A split followed through at most this many splits in a row (a chain of tests). */
const MAX_DEPTH = 4;

export function inlineSplits(
	states: Record<string, StateConfig>,
	splits: ReadonlyMap<string, BuiltSplit>,
): void {
	// A split whose arrows all lead somewhere is followed; one that does not is left to the machine.
	// Copied: the split states' own arrows are rewritten below too (a split leading to a split).
	const usable = new Map(
		[...splits]
			.filter(([, s]) => s.always.every((a) => a.target))
			.map(([name, s]) => [name, { entry: [...s.entry], always: [...s.always] }]),
	);
	if (usable.size === 0) return;
	for (const config of Object.values(states)) {
		const state = config as { on?: Record<string, unknown>; always?: unknown };
		if (state.on)
			for (const event of Object.keys(state.on))
				state.on[event] = expanded(state.on[event], usable);
		if (state.always) state.always = expanded(state.always, usable);
	}
}

function expanded(arrows: unknown, splits: ReadonlyMap<string, BuiltSplit>): unknown {
	if (arrows === undefined || typeof arrows === 'string') return arrows;
	const list = (Array.isArray(arrows) ? arrows : [arrows]) as Arrow[];
	if (!list.some((a) => typeof a.target === 'string' && splits.has(a.target))) return arrows;
	return list.flatMap((arrow) => through(arrow, splits, 0));
}

/** An arrow, and before it the arrows that take it through the split it leads to. */
function through(arrow: Arrow, splits: ReadonlyMap<string, BuiltSplit>, depth: number): Arrow[] {
	const split = typeof arrow.target === 'string' ? splits.get(arrow.target) : undefined;
	if (!split || depth >= MAX_DEPTH) return [arrow];
	const inlined = split.always.flatMap((variant) =>
		through(
			{
				...variant,
				// The variant's guard first: it reads only the conversation, and is cheap.
				guard:
					arrow.guard === undefined ? variant.guard : and([variant.guard, arrow.guard] as never),
				actions: [...listOf(arrow.actions), ...split.entry, ...listOf(variant.actions)],
			},
			splits,
			depth + 1,
		),
	);
	return [...inlined, arrow];
}

const listOf = (actions: unknown): unknown[] =>
	actions === undefined ? [] : Array.isArray(actions) ? actions : [actions];
