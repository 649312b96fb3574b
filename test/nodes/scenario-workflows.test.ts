/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling: temporary files, never loaded by n8n */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import {
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INode,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { closeSharedSqliteStores } from '../../runtime/stores/sqlite';
import {
	outputOf,
	registerNodeType,
	registerSubWorkflow,
	runWorkflow,
	type TestWorkflow,
} from '../helpers/n8n';
import { itemsInto, scenarioNode } from '../helpers/workflows';

const dir = mkdtempSync(path.join(tmpdir(), 'mb-scenario-calls-'));
afterAll(async () => {
	await closeSharedSqliteStores();
	rmSync(dir, { recursive: true, force: true });
});
const example = (name: string) =>
	readFileSync(path.join(__dirname, '../../examples/scenarios', `${name}.json`), 'utf8');

/** The body of the FAQ sub-workflow: answers a few questions, nothing for others, fails on "boom". */
class FaqAnswers implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'FAQ Answers',
		name: 'faqAnswers',
		group: ['transform'],
		version: 1,
		description: 'Answers questions',
		defaults: { name: 'FAQ Answers' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const question = String(this.getInputData()[0]?.json.question ?? '').toLowerCase();
		if (question.includes('boom')) throw new NodeOperationError(this.getNode(), 'FAQ store down');
		if (question.includes('deliver'))
			return [[{ json: { answer: 'We deliver in 2 to 3 working days.' } }]];
		return [[]];
	}
}
registerNodeType('test.faqAnswers', new FaqAnswers());
registerSubWorkflow('wf_faq', {
	// The calling item arrives at the first node, as at an Execute Workflow Trigger.
	nodes: [
		{
			id: 'faq',
			name: 'Answer',
			type: 'test.faqAnswers',
			typeVersion: 1,
			position: [200, 0],
			parameters: {},
		},
	],
	connections: {},
});

function workflow(parameters: INode['parameters']): TestWorkflow {
	return itemsInto([{}], scenarioNode(parameters));
}

const credentials = {
	messagingBotApi: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', authHeader: 'bearer' },
};

describe('Messaging Bot Scenario node: Test Conversation and Get Diagram', () => {
	it('plays messages without sending: transcript, states, variables, calls with inputs', async () => {
		const run = await runWorkflow(
			workflow({
				operation: 'testConversation',
				scenario: example('order-status'),
				testMessages: 'hi\norder\nada@example.com\n1001\norder\n4242',
				testClient: JSON.stringify({
					id: 'cl_t',
					first_name: 'Ada',
					tags: [],
					orders: [{ order_id: 'ord_1001', status: 'shipped', created_at: '2026-01-01' }],
				}),
			}),
			credentials,
		);
		const [item] = outputOf(run, 'Scenario');
		const json = item.json as IDataObject;
		expect(json.transcript).toEqual(
			expect.arrayContaining([
				{ from: 'client', text: '1001' },
				{
					from: 'bot',
					text: 'Order 1001 has shipped. Tracking details are on their way to ada@example.com.',
				},
				{ from: 'bot', text: 'I could not find order 4242 among your orders.' },
			]),
		);
		expect(json.states).toEqual([
			'welcome',
			'ask_email',
			'ask_number',
			'status',
			'ask_number',
			'retry_number',
		]);
		expect(json.vars).toEqual({ email: 'ada@example.com', order_number: '4242' });
	});

	it('lists the workflow calls it would make, with their inputs, without running them', async () => {
		const run = await runWorkflow(
			workflow({
				operation: 'testConversation',
				scenario: example('faq'),
				testMessages: 'hi\nhello\nwhen do you deliver?',
			}),
			credentials,
		);
		const json = outputOf(run, 'Scenario')[0].json as IDataObject;
		expect(json.calls).toEqual([
			{ workflow: 'faq-lookup', inputs: { question: 'hello' }, outcome: 'empty' },
			{ workflow: 'faq-lookup', inputs: { question: 'when do you deliver?' }, outcome: 'empty' },
		]);
	});

	it('runs the connected sub-workflow when asked: success, nothing, failure', async () => {
		const run = await runWorkflow(
			workflow({
				operation: 'testConversation',
				scenario: example('faq'),
				testMessages: 'hi\nwhen do you deliver?\nparking?\nboom',
				runWorkflows: true,
				workflows: {
					workflow: [{ name: 'faq-lookup', workflow: { __rl: true, mode: 'id', value: 'wf_faq' } }],
				},
			}),
			credentials,
		);
		const json = outputOf(run, 'Scenario')[0].json as IDataObject;
		expect((json.calls as IDataObject[]).map((c) => c.outcome)).toEqual([
			'success',
			'empty',
			'failure',
		]);
		const bot = (json.transcript as IDataObject[]).filter((t) => t.from === 'bot');
		expect(bot.map((t) => t.text)).toEqual(
			expect.arrayContaining([
				'We deliver in 2 to 3 working days.',
				expect.stringContaining('I have no answer to that'),
				expect.stringContaining('I cannot look that up right now'),
			]),
		);
	});

	it('says which workflow the scenario calls but the node does not connect', async () => {
		const run = await runWorkflow(
			workflow({
				operation: 'testConversation',
				scenario: example('faq'),
				testMessages: 'hello',
				runWorkflows: true,
			}),
			credentials,
		);
		expect(run.data.resultData.error?.message).toBe(
			'A workflow the scenario calls is not connected',
		);
	});

	it('gives the Mermaid diagram', async () => {
		const run = await runWorkflow(
			workflow({ operation: 'getDiagram', scenario: example('faq') }),
			credentials,
		);
		const json = outputOf(run, 'Scenario')[0].json as IDataObject;
		expect(json.scenario).toBe('faq');
		expect(String(json.mermaid)).toMatch(/^stateDiagram-v2\n/);
		expect(String(json.mermaid)).toContain('lookup --> listening : faq-lookup: success');
	});
});
