import { splitName, type SplitDef } from '../format/split';
import type { ActionDef, ScenarioDocument } from '../format/schema';
import { destination, type ActionConfig, type AlwaysConfig } from './setup';

/**
 * A split as machine parts: the state is left at once down the client's variant's arrow (the one
 * it has, else the winner, else its hash's: setup.ts's `variantDrawn`), and a variant drawn now is
 * kept on the conversation by that arrow's first action (`keepVariant`). The arrows of a kept
 * variant come first and change nothing in the context: a client's later passes cost no copy of
 * it. Goals mark the client's variant as successful in the context, once; the analytics count
 * what changed there (analytics/tally.ts).
 */

/** What the split needs of the scenario's builder (build.ts). */
interface SplitBuilder {
	actions(defs: ActionDef[] | undefined): ActionConfig[];
}

export function splitMoves(state: string, split: SplitDef, build: SplitBuilder): AlwaysConfig[] {
	const test = splitName(split, state);
	const variants = split.variants.map((v) => ({ name: v.name, weight: v.weight }));
	const draw = { test, variants, ...(split.winner === undefined ? {} : { winner: split.winner }) };
	// Each variant's actions built once, for both of its arrows.
	const built = split.variants.map((v) => ({ v, actions: build.actions(v.actions) }));
	const arrow = ({ v, actions }: (typeof built)[number], kept: boolean): AlwaysConfig => {
		const keep: ActionConfig[] = kept
			? []
			: [{ type: 'keepVariant', params: { test, variant: v.name } }];
		return {
			guard: kept
				? { type: 'variantIs', params: { test, variant: v.name } }
				: { type: 'variantDrawn', params: { ...draw, variant: v.name } },
			actions: [...keep, ...actions],
			...destination(v.actions, v.target),
		};
	};
	return [...built.map((b) => arrow(b, true)), ...built.map((b) => arrow(b, false))];
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
			byTag.size === 0
				? []
				: mark(
						tags.flatMap((tag) => byTag.get(tag.trim()) ?? []),
						false,
					),
	};
}
