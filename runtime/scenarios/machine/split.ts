import { splitName, type SplitDef } from '../format/split';
import type { ActionDef, ScenarioDocument } from '../format/schema';
import { destination, type ActionConfig, type AlwaysConfig } from './setup';

/**
 * A split as machine parts: on entry the client's variant is kept or assigned (setup.ts's
 * `assignVariant`: the one it has, else the winner, else its hash's), then the state is left
 * down that variant's arrow. Goals mark the client's variant as successful in the context, once;
 * the analytics count what changed there (analytics/tally.ts).
 */

export function splitEntry(state: string, split: SplitDef): ActionConfig {
	const variants = split.variants.map((v) => ({ name: v.name, weight: v.weight }));
	return {
		type: 'assignVariant',
		params: {
			test: splitName(split, state),
			variants,
			...(split.winner === undefined ? {} : { winner: split.winner }),
		},
	};
}

/** What the split needs of the scenario's builder (build.ts). */
interface SplitBuilder {
	actions(defs: ActionDef[] | undefined): ActionConfig[];
}

export function splitMoves(state: string, split: SplitDef, build: SplitBuilder): AlwaysConfig[] {
	const test = splitName(split, state);
	return split.variants.map((v) => ({
		guard: { type: 'variantIs', params: { test, variant: v.name } },
		actions: build.actions(v.actions),
		...destination(v.actions, v.target),
	}));
}

/** The goal marks a scenario's states and tags carry. */
export interface Goals {
	/** On entering this state, with its tries reset (`resetTries`) in the same action. */
	reached(state: string, resetTries: boolean): ActionConfig[];
	/** With an action that adds these tags. */
	tagged(tags: readonly string[]): ActionConfig[];
}

export function goalsOf(doc: ScenarioDocument): Goals {
	const byState = new Map<string, string[]>();
	const byTag = new Map<string, string[]>();
	for (const [state, def] of Object.entries(doc.states)) {
		const goal = def.split?.goal;
		if (!def.split || !goal) continue;
		const test = splitName(def.split, state);
		const [map, key] = 'state' in goal ? [byState, goal.state] : [byTag, goal.tag];
		map.set(key, [...(map.get(key) ?? []), test]);
	}
	const mark = (tests: readonly string[], resetTries: boolean): ActionConfig[] => {
		if (tests.length > 0) return [{ type: 'reachGoal', params: { tests, resetTries } }];
		return resetTries ? [{ type: 'resetTries' }] : [];
	};
	return {
		reached: (state, resetTries) => mark(byState.get(state) ?? [], resetTries),
		tagged: (tags) =>
			byTag.size === 0 ? [] : mark(tags.flatMap((tag) => byTag.get(tag.trim()) ?? []), false),
	};
}
