/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling: temporary files and example scenarios, never loaded by n8n */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { NodeHelpers, Workflow, type IDataObject, type INode } from 'n8n-workflow';

import { MessagingBotScenario } from '../../nodes/MessagingBotScenario/MessagingBotScenario.node';
import { main } from '../../runtime/cli/scenario';
import { closeSharedSqliteStores } from '../../runtime/stores/sqlite';
import { nodeTypes, outputOf, runWorkflow } from '../helpers/n8n';
import { itemsInto, scenarioNode } from '../helpers/workflows';

const dir = mkdtempSync(path.join(tmpdir(), 'mb-first-run-'));
afterAll(async () => {
	await closeSharedSqliteStores();
	rmSync(dir, { recursive: true, force: true });
});
const orderStatus = readFileSync(
	path.join(__dirname, '../../examples/scenarios/order-status.json'),
	'utf8',
);

/** "hi / 3 / what?": the menu state answers its two choices and nothing else. */
const SILENT_MENU = {
	id: 'menu',
	version: 1,
	start: 'hello',
	states: {
		hello: {
			messages: ['Hi! Type 1 for opening hours or 2 for the address.'],
			on: [
				{ match: { equals: '1' }, actions: [{ reply: 'We open at 9.' }] },
				{ match: { equals: '2' }, actions: [{ reply: '1 Main Street.' }] },
			],
		},
	},
};
const WARNING =
	'State hello: a message that matches none of its choices gets no answer: add a last choice with "match": {"any": true}, or a "fallback" (in the state or at the top of the scenario)';

const withoutCredentials = (parameters: INode['parameters']): INode => {
	const node = scenarioNode(parameters);
	delete node.credentials;
	return node;
};

describe('Scenario node on a first run', () => {
	it('Handle Message run by hand points to Test Conversation and the trigger', async () => {
		// What a Manual Trigger gives: one empty item.
		const run = await runWorkflow(
			itemsInto(
				[{}],
				scenarioNode({
					operation: 'handleMessage',
					scenario: orderStatus,
					options: { statePath: path.join(dir, 'state.sqlite') },
				}),
			),
			{ messagingBotApi: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', authHeader: 'bearer' } },
		);
		const error = run.data.resultData.error;
		expect(error?.message).toBe('This item is not a message from a client');
		expect(error?.description).toMatch(/Test Conversation/);
		expect(error?.description).toMatch(/Messaging Bot Trigger/);
	});

	it('Test Conversation runs without any credential, and warns of a state that answers nothing', async () => {
		const run = await runWorkflow(
			itemsInto(
				[{}],
				withoutCredentials({
					operation: 'testConversation',
					scenario: JSON.stringify(SILENT_MENU),
					testMessages: 'hi\n3\nwhat?',
				}),
			),
			{},
		);
		expect(run.data.resultData.error).toBeUndefined();
		const json = outputOf(run, 'Scenario')[0].json as IDataObject;
		expect(json.warnings).toEqual([WARNING]);
	});

	it('Get Diagram runs without any credential', async () => {
		const run = await runWorkflow(
			itemsInto([{}], withoutCredentials({ operation: 'getDiagram', scenario: orderStatus })),
			{},
		);
		expect(run.data.resultData.error).toBeUndefined();
		expect(String(outputOf(run, 'Scenario')[0].json.mermaid)).toMatch(/^stateDiagram-v2/);
	});

	it('an operation it does not know fails as a node error of the first item', async () => {
		const run = await runWorkflow(
			itemsInto([{}], withoutCredentials({ operation: 'fireAll', scenario: orderStatus })),
			{},
		);
		const error = run.data.resultData.error;
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toBe('The operation "fireAll" is not known');
		expect((error as { context?: { itemIndex?: number } })?.context?.itemIndex).toBe(0);
	});

	it('has no warning for the examples', async () => {
		const run = await runWorkflow(
			itemsInto(
				[{}],
				withoutCredentials({
					operation: 'testConversation',
					scenario: orderStatus,
					testMessages: 'hi',
				}),
			),
			{},
		);
		expect(outputOf(run, 'Scenario')[0].json.warnings).toEqual([]);
	});
});

describe('Scenario node panel', () => {
	const description = new MessagingBotScenario().description;
	const shown = (operation: string, set: IDataObject = {}) => {
		const parameters = NodeHelpers.getNodeParameters(
			description.properties,
			{ operation, ...set },
			true,
			false,
			null,
			description,
		) as IDataObject;
		const visible = (p: { displayOptions?: unknown }) =>
			NodeHelpers.displayParameter(
				parameters as never,
				p as never,
				{ typeVersion: 1 },
				description,
			);
		return {
			fields: description.properties.filter(visible).map((p) => p.displayName),
			credentials: (description.credentials ?? []).filter(visible).map((c) => c.name),
		};
	};

	it('asks for the API credential only for operations that reach the service', () => {
		expect(shown('testConversation').credentials).toEqual([]);
		expect(shown('getDiagram').credentials).toEqual([]);
		expect(shown('handleMessage').credentials).toEqual(['messagingBotApi']);
	});

	it('Get Diagram shows no Workflows or Storage field', () => {
		const fields = shown('getDiagram').fields;
		expect(fields).not.toContain('Workflows');
		expect(fields).not.toContain('Storage');
		expect(shown('handleMessage').fields).toEqual(expect.arrayContaining(['Workflows', 'Storage']));
	});

	it('shows Storage, and runs with it, where the operation opens the store: Get Diagram only to draw traffic', () => {
		const operations = (
			description.properties.find((p) => p.name === 'operation')?.options as Array<{
				value: string;
			}>
		).map((o) => o.value);
		// How many Storage fields the panel shows, and the Storage the node runs with (as n8n
		// resolves a workflow's parameters), for Redis chosen.
		const storage = (operation: string, set: IDataObject = {}) => {
			const runsWith = NodeHelpers.getNodeParameters(
				description.properties,
				{ operation, stateStore: 'redis', ...set },
				true,
				false,
				null,
				description,
			) as IDataObject;
			const fields = shown(operation, set).fields.filter((f) => f === 'Storage').length;
			return [fields, runsWith.stateStore ?? null];
		};
		for (const operation of operations)
			expect([operation, storage(operation)]).toEqual([
				operation,
				['testConversation', 'getDiagram'].includes(operation) ? [0, null] : [1, 'redis'],
			]);
		expect(storage('getDiagram', { drawTraffic: true })).toEqual([1, 'redis']);
		expect(storage('getDiagram', { drawTraffic: false })).toEqual([0, null]);
		expect(shown('getDiagram', { drawTraffic: true, stateStore: 'redis' }).credentials).toEqual([
			'messagingBotRedisApi',
		]);
	});

	it('has a subtitle for every operation', () => {
		const operations = (
			description.properties.find((p) => p.name === 'operation')?.options as Array<{
				name: string;
				value: string;
			}>
		).map((o) => [o.value, o.name]);
		const node = scenarioNode({ operation: 'handleMessage' });
		for (const [value, name] of operations) {
			const workflow = new Workflow({
				nodes: [{ ...node, parameters: { operation: value } }],
				connections: {},
				nodeTypes,
				active: false,
			});
			const subtitle = workflow.expression.getSimpleParameterValue(
				workflow.getNode(node.name) as INode,
				description.subtitle as string,
				'manual',
				{},
			);
			expect([value, subtitle]).toEqual([value, name]);
		}
	});
});

describe('messaging-bot-scenario validate', () => {
	it('prints the warning and still exits 0', async () => {
		const file = path.join(dir, 'menu.json');
		writeFileSync(file, JSON.stringify(SILENT_MENU));
		let out = '';
		const code = await main(['validate', file], {
			lines: (async function* () {})(),
			out: (t) => (out += t),
			err: () => undefined,
			interactive: false,
		});
		expect(code).toBe(0);
		expect(out).toContain(`warning: ${WARNING} (states.hello)`);
	});
});
