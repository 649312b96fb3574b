import { declaredVariables } from '../../format/document-facts';
import type { CompiledScenario } from '../../machine/compile';
import { unfinished, type ConversationRecord } from '../../durability/record';
import type { VersionRef } from './book';

/**
 * What a Move does to one conversation, decided from its record alone (move.ts reads and writes):
 * moved to the mapped state of the target version, left on its version, started over, or not
 * moved, and why.
 */

export interface MovePlan {
	/** The scenario whose conversations move (default: the engine's entry scenario). */
	scenario?: string;
	/** The version they run on now. */
	from: number;
	/** The version they move to (default: the live one). */
	to?: number;
	/** Old state → new state. */
	states: Readonly<Record<string, string>>;
	/** A conversation in a state the map leaves out: finishes on its version, or starts over. */
	unmapped: 'finish' | 'restart';
}

export type Fate =
	| { kind: 'moves'; state: string; to: string; record: ConversationRecord }
	| { kind: 'stays'; state: string }
	| { kind: 'restarts'; state: string; record: ConversationRecord }
	| { kind: 'not-moved'; state: string; reason: string }
	/** Not (or no longer) a live conversation of the version: ended, moved already, gone. */
	| { kind: 'elsewhere' };

/** The map's problems, each naming the field: every key a state of `from` (when known), every value one of `to`. */
export function mapProblems(
	plan: MovePlan,
	from: CompiledScenario | undefined,
	to: CompiledScenario,
): string[] {
	const problems: string[] = [];
	for (const [old, target] of Object.entries(plan.states)) {
		if (from && !from.stateNames.has(old))
			problems.push(`State Map: "${old}" is not a state of version ${from.version}`);
		if (!to.stateNames.has(target))
			problems.push(
				`State Map: "${target}" (for "${old}") is not a state of version ${to.version}`,
			);
		else if (to.document.states[target]?.end)
			problems.push(
				`State Map: "${target}" (for "${old}") is an end state; map it to a state that waits`,
			);
	}
	return problems;
}

/** What the move does to `record`, at `now`. */
export function fateOf(
	record: ConversationRecord | undefined,
	from: VersionRef,
	plan: MovePlan,
	to: CompiledScenario,
	now: number,
): Fate {
	if (!record || record.ended) return { kind: 'elsewhere' };
	if (record.scenario.id !== from.id || record.scenario.version !== from.version)
		return { kind: 'elsewhere' };
	const state = record.snapshot.value;
	const target = plan.states[state];
	if (target === undefined) {
		if (plan.unmapped === 'finish') return { kind: 'stays', state };
		// Ends here: the client's next message starts a conversation on the live version.
		return {
			kind: 'restarts',
			state,
			record: { ...record, ended: true, timer: null, updatedAt: now },
		};
	}
	const waiting = record.outbox.find((e) => unfinished(e) && e.effect.kind === 'workflow');
	if (waiting)
		return {
			kind: 'not-moved',
			state,
			reason: `waits for a workflow's result in state "${state}"`,
		};
	return { kind: 'moves', state, to: target, record: moved(record, to, target, now) };
}

/**
 * The record on `to` in `target`: the variables `to` declares kept, a capture's tries started
 * again, a silence timer kept (or armed) when the new state has one.
 */
function moved(
	record: ConversationRecord,
	to: CompiledScenario,
	target: string,
	now: number,
): ConversationRecord {
	const { context } = record.snapshot;
	const declared = declaredVariables(to.document);
	const vars = Object.fromEntries(
		Object.entries(context.vars).filter(([name]) => declared.has(name)),
	);
	const minutes = to.timerMinutes(target);
	const timer =
		minutes === undefined || context.handedOff
			? null
			: { dueAt: record.timer?.dueAt ?? now + minutes * 60_000, state: target };
	return {
		...record,
		scenario: { id: to.id, version: to.version },
		snapshot: { value: target, context: { ...context, vars, tries: 0 } },
		timer,
		updatedAt: now,
	};
}
