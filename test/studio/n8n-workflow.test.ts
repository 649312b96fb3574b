/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling: reads an example workflow, never loaded by n8n */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { workflowIdOf } from '../../runtime/studio/server/n8n-api';
import {
	applyScenario,
	hasUnpublishedChanges,
	putBody,
	scenarioNodes,
	type N8nWorkflow,
} from '../../runtime/studio/server/n8n-workflow';

/**
 * What the studio reads from and writes into a workflow as n8n's public API returns it, on the
 * order-status example (two Scenario nodes holding one scenario). The same against a running
 * n8n: test/studio/n8n.browser.ts.
 */

const example = () =>
	JSON.parse(
		readFileSync(path.join(__dirname, '../../examples/workflows/order-status-bot.json'), 'utf8'),
	) as N8nWorkflow;
const TYPE = 'n8n-nodes-messaging-bot.messagingBotScenario';

test('lists the Scenario nodes; a field that is an expression or unset cannot be opened', () => {
	const workflow = example();
	workflow.nodes.push(
		{ name: 'Built', type: TYPE, parameters: { scenario: '={{ $json.scenario }}' } },
		{ name: 'Pasted', type: TYPE, parameters: { scenario: '={ "id": "x" }' } },
		{ name: 'Unset', type: TYPE, parameters: {} },
	);
	const nodes = scenarioNodes(workflow);
	expect(
		nodes.map((n) => [n.name, n.operation, n.problem ?? JSON.parse(n.scenario ?? '').id]),
	).toEqual([
		['Order-Status Scenario', 'handleMessage', 'order-status'],
		['Send Due Reminders', 'fireTimers', 'order-status'],
		['Built', 'handleMessage', 'its Scenario field is an expression, built when the workflow runs'],
		['Pasted', 'handleMessage', 'x'],
		['Unset', 'handleMessage', 'its Scenario field is unset (the built-in example)'],
	]);
});

test('writes the node and its copies; refuses a stale baseline and a scenario with problems', () => {
	const workflow = example();
	const baseline = scenarioNodes(workflow)[0].scenario as string;
	const scenario = JSON.parse(baseline) as Record<string, unknown>;
	const change = { nodeName: 'Order-Status Scenario', baseline };
	expect(() =>
		applyScenario(example(), {
			...change,
			scenario: JSON.stringify({ ...scenario, start: 'nowhere' }),
		}),
	).toThrow(/^Not saved: the scenario has 1 problem\(s\).*start/);
	const stale = JSON.stringify({ ...scenario, version: 0 });
	expect(() =>
		applyScenario(example(), { ...change, baseline: stale, scenario: baseline }),
	).toThrow(/changed in n8n since the studio opened it/);
	const next = JSON.stringify({ ...scenario, version: 9 });
	expect(applyScenario(workflow, { ...change, scenario: next })).toEqual([
		'Order-Status Scenario',
		'Send Due Reminders',
	]);
	expect(scenarioNodes(workflow).map((n) => JSON.parse(n.scenario as string).version)).toEqual([
		9, 9,
	]);
});

test("PUT's body: n8n's read-only node fields left out; a field it cannot write refused, by name", () => {
	const workflow = {
		...example(),
		id: 'x',
		active: true,
		versionId: 'b',
		activeVersionId: 'a',
		settings: { executionOrder: 'v1', somethingNew: 1 },
	};
	workflow.nodes[0].createdAt = '2026-01-01';
	const body = putBody(workflow);
	expect(Object.keys(body)).toEqual(['name', 'nodes', 'connections', 'settings']);
	expect(body.settings).toEqual({ executionOrder: 'v1' });
	expect(body.nodes[0]).not.toHaveProperty('createdAt');
	expect(hasUnpublishedChanges(workflow)).toBe(true);
	workflow.nodes[1].extendsCredential = 'x';
	expect(() => putBody(workflow)).toThrow(/cannot write the field "extendsCredential" of the node/);
});

test('takes a workflow ID or its address in the editor; refuses anything else', () => {
	expect(workflowIdOf('mbFaqBot00000001')).toBe('mbFaqBot00000001');
	expect(workflowIdOf('http://localhost:5678/workflow/Ab3_x-9/debug/1')).toBe('Ab3_x-9');
	expect(() => workflowIdOf('../../credentials')).toThrow(/letters, digits/);
});
