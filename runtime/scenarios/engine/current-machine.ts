import { declaredVariables } from '../format/document-facts';
import type { ScenarioSnapshot } from '../machine/build';
import type { CompiledScenario } from '../machine/compile';
import type { ConversationRecord } from '../durability/record';
import type { ScenarioRef } from '../analytics/counter-keys';

/** A conversation's machine, its snapshot in it, and the live version when it runs on an older one. */
export interface CurrentMachine {
	compiled: CompiledScenario;
	snapshot: ScenarioSnapshot | undefined;
	/** The live version, when the conversation is stepped on an older one. */
	live?: CompiledScenario;
}

/**
 * The conversation's machine and snapshot: its own version's when it is pinned there (`pinned`
 * gives that version's definition, engine/versions/pinned.ts), else the scenarios loaded now. The
 * rule when a scenario changed under a live conversation that follows it: continue if its current
 * state still exists (variables it no longer declares are dropped, a capture's tries start over),
 * else start over. Undefined: its scenario is not loaded.
 */
export function currentMachine(
	scenarios: ReadonlyMap<string, CompiledScenario>,
	pinned: (ref: ScenarioRef) => CompiledScenario | undefined,
	record: ConversationRecord,
): CurrentMachine | undefined {
	const live = scenarios.get(record.scenario.id);
	if (!live) return undefined;
	const older = live.version === record.scenario.version ? undefined : pinned(record.scenario);
	const compiled = older ?? live;
	const { value, context } = record.snapshot;
	if (!compiled.stateNames.has(value) || compiled.document.states[value]?.end)
		return { compiled: live, snapshot: undefined };
	if (compiled.version === record.scenario.version)
		return {
			compiled,
			snapshot: compiled.restore(record.snapshot),
			...(older ? { live } : {}),
		};
	const declared = declaredVariables(compiled.document);
	const vars = Object.fromEntries(
		Object.entries(context.vars).filter(([name]) => declared.has(name)),
	);
	return {
		compiled,
		snapshot: compiled.restore({ value, context: { ...context, vars, tries: 0 } }),
	};
}
