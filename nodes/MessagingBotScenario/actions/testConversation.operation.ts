import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import {
	issuesInWords,
	rehearse,
	scenarioWarnings,
	type ClientProfile,
	type CompiledScenario,
	type WorkflowPort,
} from '../../../runtime/scenarios';
import { testProperties } from './descriptions';
import type { OfflineOperation } from './types';
import { workflowPort } from './workflows';

/**
 * Test Conversation: plays the client messages of each item through the scenario without sending
 * anything; one item out per item in, with the transcript, the states, the variables and the
 * workflow calls (run for real only when asked, else answered with nothing).
 */
export const testConversation: OfflineOperation = {
	description: testProperties,
	async offline(scenarios) {
		return await rehearseItems.call(this, scenarios, () => workflowPort(this, scenarios));
	},
};

async function rehearseItems(
	this: IExecuteFunctions,
	scenarios: readonly CompiledScenario[],
	workflows: () => WorkflowPort,
): Promise<INodeExecutionData[][]> {
	const out: INodeExecutionData[] = [];
	const items = this.getInputData();
	for (let i = 0; i < items.length; i++) {
		try {
			const messages = String(this.getNodeParameter('testMessages', i, ''))
				.split(/\r?\n/)
				.map((m) => m.trim())
				.filter(Boolean);
			if (messages.length === 0)
				throw new NodeOperationError(this.getNode(), 'Client Messages is empty', {
					description: 'Write the messages the client sends, one per line',
					itemIndex: i,
				});
			const client = testClient(this, i);
			const run = this.getNodeParameter('runWorkflows', i, false) as boolean;
			const result = await rehearse(scenarios, messages, {
				client,
				...(run ? { workflows: workflows() } : {}),
			});
			out.push({
				json: { ...(result as unknown as IDataObject), warnings: warningsOf(scenarios) },
				pairedItem: { item: i },
			});
		} catch (error) {
			if (!this.continueOnFail()) {
				throw error instanceof NodeOperationError
					? error
					: new NodeOperationError(this.getNode(), error as Error, { itemIndex: i });
			}
			out.push({ json: { error: (error as Error).message }, pairedItem: { item: i } });
		}
	}
	return [out, []];
}

function testClient(ctx: IExecuteFunctions, i: number): ClientProfile {
	const raw = ctx.getNodeParameter('testClient', i, '{}') as unknown;
	let value: unknown = raw;
	if (typeof raw === 'string') {
		try {
			value = raw.trim() === '' ? {} : JSON.parse(raw);
		} catch (error) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Test Client is not valid JSON: ${(error as Error).message}`,
				{
					itemIndex: i,
				},
			);
		}
	}
	const c = (value && typeof value === 'object' ? value : {}) as Partial<ClientProfile>;
	return {
		...c,
		id: typeof c.id === 'string' && c.id ? c.id : 'cl_test',
		tags: Array.isArray(c.tags) ? c.tags.map(String) : [],
	};
}

/** What the scenarios allow but probably do not mean, in the designer's words. */
function warningsOf(scenarios: readonly CompiledScenario[]): string[] {
	return issuesInWords(
		scenarios.flatMap((s) =>
			scenarioWarnings(s.document).map((w) =>
				scenarios.length > 1 ? { ...w, scenario: s.id } : w,
			),
		),
	);
}
