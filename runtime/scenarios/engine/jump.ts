import type { PathLeg } from '../analytics/step-notes';
import type { ScenarioRef } from '../analytics/counter-keys';
import { declaredVariables } from '../format/document-facts';
import type { MessageFields } from '../format/templates';
import type { ScenarioSnapshot } from '../machine/build';
import type { CompiledScenario, Step } from '../machine/compile';
import { JUMP_STATE } from '../machine/setup';

/**
 * Where a step ends: in its own scenario, or, when it jumps to another one, in that scenario's
 * entry state, with the variables the target declares carried over and both scenarios' effects.
 * The path holds the states each scenario's part of the step passed (the analytics count them).
 */
export function followJump(
	scenarios: ReadonlyMap<string, CompiledScenario>,
	compiled: CompiledScenario,
	step: Step,
	message: MessageFields | undefined,
): {
	scenario: CompiledScenario;
	snapshot: ScenarioSnapshot;
	effects: Step['effects'];
	path: PathLeg[];
} {
	const { snapshot } = step;
	const jump = snapshot.value === JUMP_STATE ? snapshot.context.jump : null;
	const here = { scenario: refOf(compiled), states: step.visits };
	if (!jump) return { scenario: compiled, snapshot, effects: step.effects, path: [here] };
	const target = scenarios.get(jump.scenario);
	// validateScenarioSet guarantees the target; the check keeps the types honest.
	if (!target) throw new Error(`No scenario "${jump.scenario}" is loaded`);
	const declared = declaredVariables(target.document);
	const vars = Object.fromEntries(
		Object.entries(snapshot.context.vars).filter(([name]) => declared.has(name)),
	);
	const splits = snapshot.context.splits;
	const entered = target.initial({
		entry: jump.state,
		client: snapshot.context.client,
		vars,
		...(splits ? { splits } : {}),
		...(message ? { message } : {}),
	});
	return {
		scenario: target,
		snapshot: entered.snapshot,
		effects: [...step.effects, ...entered.effects],
		path: [here, { scenario: refOf(target), states: entered.visits }],
	};
}

function refOf(compiled: CompiledScenario): ScenarioRef {
	return { id: compiled.id, version: compiled.version };
}
