import type { ScenarioDocument, TransitionDef } from './schema';
import type { ScenarioIssue } from './issue';
import { splitWarnings } from './split-rules';
import { pathKey } from './walk';

/**
 * What is allowed but probably not meant: a scenario with warnings runs. Shown beside the
 * validation results (Test Conversation's output, the CLI's validate).
 */
export function scenarioWarnings(doc: ScenarioDocument): ScenarioIssue[] {
	const warnings: ScenarioIssue[] = [];
	const catchesAll = (doc.keywords ?? []).some(isCatchAll) || doc.fallback !== undefined;
	for (const [name, state] of Object.entries(doc.states)) {
		// A state that waits for one of its choices, with nothing for any other message.
		const waits =
			(state.on ?? []).length > 0 && !state.capture && !state.menu && !state.call && !state.end;
		if (!waits || catchesAll || state.fallback !== undefined || state.choose) continue;
		if ((state.on ?? []).some(isCatchAll)) continue;
		warnings.push({
			path: `states.${pathKey(name)}`,
			message:
				'a message that matches none of its choices gets no answer: add a last choice with "match": {"any": true}, or a "fallback" (in the state or at the top of the scenario)',
		});
	}
	warnings.push(...splitWarnings(doc));
	return warnings;
}

function isCatchAll(transition: TransitionDef): boolean {
	const match = transition.match as { any?: boolean };
	return match.any === true && (transition.when ?? []).length === 0;
}
