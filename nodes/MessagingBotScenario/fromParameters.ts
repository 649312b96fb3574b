import { NodeOperationError, sleep, type IExecuteFunctions } from 'n8n-workflow';

import {
	compileScenario,
	conversationScope,
	ScenarioEngine,
	ScenarioValidationError,
	issuesInWords,
	type CompiledScenario,
	type LatePolicy,
	type LiveConversations,
	type ReorderMode,
} from '../../runtime/scenarios';
import { clientFor, n8nClock } from '../shared/transport';
import { nodeStateStore } from '../shared/stateStore';
import type { StateStore } from '../../runtime/stores/types';
import { workflowPort } from './actions/workflows';
import { scenarioField } from './scenarioField';

/** One problem per line (n8n shows an error's description as HTML), in the designer's words. */
function asLines(lines: readonly string[]): string {
	const escape = (t: string) =>
		t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
	return lines.map((l) => `• ${escape(l)}`).join('<br>\n');
}

function compile(ctx: IExecuteFunctions, input: unknown, label: string): CompiledScenario {
	try {
		return compileScenario(input);
	} catch (error) {
		if (error instanceof ScenarioValidationError) {
			const count = error.issues.length;
			throw new NodeOperationError(
				ctx.getNode(),
				`${label} has ${count} ${count === 1 ? 'problem' : 'problems'}`,
				{ description: asLines(issuesInWords(error.issues)) },
			);
		}
		throw new NodeOperationError(ctx.getNode(), error as Error);
	}
}

/** The node's scenarios, compiled: the Scenario, then the Other Scenarios. */
export function scenariosFor(ctx: IExecuteFunctions): CompiledScenario[] {
	const mainDoc = scenarioField(ctx, 'scenario', 'Scenario', undefined);
	const others = scenarioField(ctx, 'options.otherScenarios', 'Other Scenarios', []);
	// The same JSON compiles to the same scenarios: each execution of a workflow reuses them.
	const key = JSON.stringify([mainDoc, others]);
	const known = compiledScenarios.get(key);
	if (known) return known;
	const main = compile(ctx, mainDoc, 'Scenario');
	const extra = (Array.isArray(others) ? others : [others]).map((doc, i) =>
		compile(ctx, doc, `Other scenario ${i + 1}`),
	);
	if (compiledScenarios.size >= COMPILED_KEPT) compiledScenarios.clear();
	compiledScenarios.set(key, [main, ...extra]);
	return [main, ...extra];
}

/** Compiled scenarios are immutable; a few are kept per process, keyed by their JSON. */
const compiledScenarios = new Map<string, CompiledScenario[]>();
const COMPILED_KEPT = 32;

/**
 * The engine for this execution: the node's scenarios, the conversations of its main scenario in
 * the shared durable store (whatever workflow runs it; those older versions kept under the
 * workflow's id are carried over on first use), replies through the Messaging Bot API credential.
 */
export async function engineFor(ctx: IExecuteFunctions): Promise<ScenarioEngine> {
	const [main, ...extra] = scenariosFor(ctx);
	const { store, scope } = await storeFor(ctx, main);
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
		scope,
		formerScope: ctx.getWorkflow().id ?? 'workflow',
		reorderWindowMs: Math.round(Number(option('reorderWindowSeconds', 1)) * 1000),
		reorderMode: option('reorderMode', 'adaptive') as ReorderMode,
		latePolicy: option('latePolicy', 'ignore') as LatePolicy,
		retentionMs: Number(option('retentionDays', 30)) * 86_400_000,
		analytics: { daysKept: Number(option('analyticsDays', 90)) },
		liveConversations: option('liveConversations', 'finish') as LiveConversations,
	});
}

/**
 * The node's state store (its Storage parameter and State File option) and the scope its main
 * scenario's conversations are kept under there: what the engine and Get Diagram's traffic read.
 */
export async function storeFor(
	ctx: IExecuteFunctions,
	main: CompiledScenario = scenariosFor(ctx)[0],
): Promise<{ store: StateStore; scope: string }> {
	const store = await nodeStateStore(
		ctx,
		ctx.getNodeParameter('stateStore', 0, 'sqlite') as string,
		ctx.getNodeParameter('options.statePath', 0, ''),
		ctx.getNodeParameter('options.refuseLossyRedis', 0, false),
	);
	const name = String(ctx.getNodeParameter('options.conversationScope', 0, ''));
	return { store, scope: conversationScope(main.id, name) };
}
