import type { FunctionsBase, INodeParameters, INodeProperties } from 'n8n-workflow';

import { conversationScope } from '../../runtime/scenarios/engine/scope';
import { SCENARIO_ID } from '../../runtime/scenarios/format/scenario-id';

/**
 * Whose conversations a Scenario node works on: its scenario's, on its store, whatever workflow
 * it is in; the option Conversation Scope sets some apart. The triggers put a message in the inbox
 * of the Scenario node they feed, so they work the scope out from that node's parameters.
 */

export const conversationScopeOption: INodeProperties = {
	displayName: 'Conversation Scope',
	name: 'conversationScope',
	type: 'string',
	default: '',
	placeholder: 'test',
	description:
		"Empty: the conversations belong to the bot, the client and this scenario's ID, and every Scenario node with the same scenario and storage shares them, in any workflow (a separate Run Due Work workflow reaches them; a copy of the workflow continues them and never answers a message twice). A name keeps this node's conversations apart, shared only with nodes given the same name: a test copy beside production.",
};

let lastParsed: { text: string; id: string | undefined } | undefined;

/** The scenario's id from the Scenario parameter as stored: JSON text or an object. */
function scenarioIdOf(scenario: unknown): string | undefined {
	if (typeof scenario === 'string') {
		// An expression is known only when the node runs.
		if (scenario.startsWith('=')) return undefined;
		// The same text at every delivery: parsed once.
		if (lastParsed?.text !== scenario) {
			let parsed: unknown;
			try {
				parsed = JSON.parse(scenario);
			} catch {
				parsed = undefined;
			}
			lastParsed = { text: scenario, id: scenarioIdOf(parsed) };
		}
		return lastParsed.id;
	}
	const id = (scenario as { id?: unknown } | null)?.id;
	return typeof id === 'string' && SCENARIO_ID.test(id) ? id : undefined;
}

/** The scope a Scenario node with these stored parameters works in; undefined when not known yet. */
export function scopeOfParameters(parameters: INodeParameters | undefined): string | undefined {
	const id = scenarioIdOf(parameters?.scenario);
	const name = (parameters?.options as { conversationScope?: unknown } | undefined)
		?.conversationScope;
	if (id === undefined || (typeof name === 'string' && name.startsWith('='))) return undefined;
	return conversationScope(id, typeof name === 'string' ? name : '');
}

type Context = Pick<FunctionsBase, 'getNode' | 'getChildNodes'>;

/**
 * For a trigger: whether it keeps each message in the inbox of the Scenario nodes it feeds, and
 * which. Only when every such node works in one scope it can tell before they run (the scenario
 * given as JSON, not by an expression); otherwise the Scenario node keeps the message itself.
 */
export function scenarioInbox(ctx: Context): { recordMessages: boolean; inboxScope?: string } {
	const scopes = new Set(
		ctx
			.getChildNodes(ctx.getNode().name, { includeNodeParameters: true })
			.filter(
				(node) =>
					node.type.endsWith('.messagingBotScenario') &&
					!node.disabled &&
					(node.parameters?.operation ?? 'handleMessage') === 'handleMessage',
			)
			.map((node) => scopeOfParameters(node.parameters)),
	);
	const [scope] = scopes;
	return scopes.size === 1 && scope !== undefined
		? { recordMessages: true, inboxScope: scope }
		: { recordMessages: false };
}
