import { compileScenario, type CompiledScenario } from '../runtime/scenarios';
import type { ScenarioDocument, StateDef } from '../runtime/scenarios/format/schema';

/** The example with "status" → "order" sent through a split whose variants both lead on. */
export function withSplit(document: ScenarioDocument): CompiledScenario {
	return throughPick(document, {
		split: {
			name: 'bench',
			variants: [
				{ name: 'a', weight: 50, target: 'ask_number' },
				{ name: 'b', weight: 50, target: 'ask_number' },
			],
			goal: { state: 'status' },
		},
	});
}

/**
 * The same arrow through a plain step in the split's place (a choice with one way on): what one
 * more state on the path costs, without a split.
 */
export function withPassThrough(document: ScenarioDocument): CompiledScenario {
	return throughPick(document, { choose: [{ target: 'ask_number' }] });
}

/** The example with "status" → "order" sent through a state "pick" defined as `pick`. */
function throughPick(document: ScenarioDocument, pick: StateDef): CompiledScenario {
	const status = document.states.status;
	const on = (status.on ?? []).map((rule) =>
		rule.target === 'ask_number' ? { ...rule, target: 'pick' } : rule,
	);
	return compileScenario({
		...document,
		states: { ...document.states, status: { ...status, on }, pick },
	});
}
