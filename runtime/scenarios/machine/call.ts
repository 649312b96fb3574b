import type { CallDef, CallOutcome } from '../format/schema';
import { renderTemplate } from '../format/templates';
import {
	destination,
	scopeOf,
	storeResult,
	DEFAULT_CALL_SECONDS,
	type ActionConfig,
	type PartBuilder,
	type StateConfig,
	type TransitionConfig,
	type TransitionOf,
} from './setup';

/**
 * A call state asks for the workflow on entry, then waits for its outcome; a message meanwhile
 * meets only `message` (the silence guard and the keywords).
 */
export function callState(
	state: string,
	call: CallDef,
	entry: ActionConfig[],
	message: TransitionConfig[],
	build: PartBuilder,
): StateConfig {
	const inputs = Object.entries(call.inputs ?? {}).map(
		([name, source]) => [name, build.template(source)] as const,
	);
	const timeoutMs = Math.round((call.timeoutSeconds ?? DEFAULT_CALL_SECONDS) * 1000);
	const ask: ActionConfig = {
		type: 'callWorkflow',
		params: ({ context, event }) => {
			const scope = scopeOf(context, event);
			const rendered = inputs.map(([n, t]) => [n, renderTemplate(t, scope)]);
			return { workflow: call.workflow, inputs: Object.fromEntries(rendered), timeoutMs, state };
		},
	};
	const branch = (outcome: CallOutcome): TransitionOf<'RESULT'> => {
		const def = call[outcome] ?? call.failure;
		return {
			guard: { type: 'outcomeIs', params: { outcome } },
			actions: [
				...(outcome === 'success' && call.store ? [storeResult(call.store)] : []),
				...(def.say === undefined ? [] : [build.reply(def.say)]),
				...build.actions(def.actions),
			],
			...destination(def.actions, def.target),
		};
	};
	return {
		entry: [...entry, ask],
		on: {
			MESSAGE: message,
			RESULT: (['success', 'empty', 'timeout', 'failure'] as const).map(branch),
		},
	};
}
