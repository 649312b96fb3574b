import { NodeOperationError, sleep, type IExecuteFunctions } from 'n8n-workflow';

import {
	compileScenario,
	ScenarioEngine,
	ScenarioValidationError,
	formatIssue,
	type CompiledScenario,
	type LatePolicy,
} from '../../runtime/scenarios';
import { clientFor, n8nClock } from '../shared/transport';
import { nodeStateStore } from '../shared/stateStore';
import { workflowPort } from './actions/workflows';

/** The scenario JSON of the node: text from the JSON editor, or an object from an expression. */
function scenarioDocument(ctx: IExecuteFunctions, name: string, fallback: unknown): unknown {
	const raw = ctx.getNodeParameter(name, 0, fallback) as unknown;
	if (typeof raw !== 'string') return raw;
	if (raw.trim() === '') return fallback;
	try {
		return JSON.parse(raw);
	} catch (error) {
		return { __invalidJson: (error as Error).message };
	}
}

function compile(ctx: IExecuteFunctions, input: unknown, label: string): CompiledScenario {
	if (input && typeof input === 'object' && '__invalidJson' in input) {
		throw new NodeOperationError(
			ctx.getNode(),
			`${label} is not valid JSON: ${String((input as { __invalidJson: string }).__invalidJson)}`,
		);
	}
	try {
		return compileScenario(input);
	} catch (error) {
		if (error instanceof ScenarioValidationError) {
			throw new NodeOperationError(
				ctx.getNode(),
				`${label} is invalid (${error.issues.length} ${error.issues.length === 1 ? 'problem' : 'problems'})`,
				{
					description: error.issues.map((i) => `• ${formatIssue(i)}`).join('\n'),
				},
			);
		}
		throw new NodeOperationError(ctx.getNode(), error as Error);
	}
}

/** The node's scenarios, compiled: the Scenario, then the Other Scenarios. */
export function scenariosFor(ctx: IExecuteFunctions): CompiledScenario[] {
	const main = compile(ctx, scenarioDocument(ctx, 'scenario', undefined), 'The scenario');
	const others = scenarioDocument(ctx, 'options.otherScenarios', []);
	if (others && typeof others === 'object' && '__invalidJson' in others)
		compile(ctx, others, 'Other Scenarios');
	const extra = (Array.isArray(others) ? others : [others]).map((doc, i) =>
		compile(ctx, doc, `Other scenario ${i + 1}`),
	);
	return [main, ...extra];
}

/**
 * The engine for this execution: the node's scenarios, the conversations of this workflow in the
 * shared durable store, replies through the Messaging Bot API credential.
 */
export async function engineFor(ctx: IExecuteFunctions): Promise<ScenarioEngine> {
	const [main, ...extra] = scenariosFor(ctx);
	const store = await nodeStateStore(
		ctx,
		ctx.getNodeParameter('stateStore', 0, 'sqlite') as string,
		ctx.getNodeParameter('options.statePath', 0, ''),
	);
	const option = (name: string, fallback: unknown) =>
		ctx.getNodeParameter(`options.${name}`, 0, fallback) as unknown;
	return new ScenarioEngine({
		scenarios: [main, ...extra],
		store,
		// Replies answer a client who is waiting: they go before bulk work on the key.
		api: await clientFor(ctx, 'interactive'),
		clock: n8nClock,
		// Renews a reply's lease while it waits for the request budget.
		wait: async (ms, signal) => await sleep(ms, signal),
		workflows: workflowPort(ctx, [main, ...extra]),
		scope: ctx.getWorkflow().id ?? 'workflow',
		reorderWindowMs: Math.round(Number(option('reorderWindowSeconds', 1)) * 1000),
		latePolicy: option('latePolicy', 'ignore') as LatePolicy,
		retentionMs: Number(option('retentionDays', 30)) * 86_400_000,
	});
}
