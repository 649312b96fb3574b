import { compileScenario, type CompiledScenario } from '../runtime/scenarios';
import type { ScenarioDocument } from '../runtime/scenarios/format/schema';

/** The example with "status" → "order" sent through a split whose variants both lead on. */
export function withSplit(document: ScenarioDocument): CompiledScenario {
	const status = document.states.status;
	const on = (status.on ?? []).map((rule) =>
		rule.target === 'ask_number' ? { ...rule, target: 'pick' } : rule,
	);
	return compileScenario({
		...document,
		states: {
			...document.states,
			status: { ...status, on },
			pick: {
				split: {
					name: 'bench',
					variants: [
						{ name: 'a', weight: 50, target: 'ask_number' },
						{ name: 'b', weight: 50, target: 'ask_number' },
					],
					goal: { state: 'status' },
				},
			},
		},
	});
}
