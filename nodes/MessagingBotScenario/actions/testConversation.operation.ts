import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import {
	rehearse,
	type ClientProfile,
	type CompiledScenario,
	type WorkflowPort,
} from '../../../runtime/scenarios';

/**
 * Test Conversation: plays the client messages of each item through the scenario without sending
 * anything; one item out per item in, with the transcript, the states, the variables and the
 * workflow calls (run for real only when asked, else answered with nothing).
 */
export async function testConversation(
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
			out.push({ json: result as unknown as IDataObject, pairedItem: { item: i } });
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
