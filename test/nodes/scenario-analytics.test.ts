/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling: the example workflow, never loaded by n8n */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { IBinaryData, INode } from 'n8n-workflow';

import { readPng } from '../../scripts/lib/png-read';
import { sentTexts } from '../helpers/emulator';
import { outputOf, runWorkflow } from '../helpers/n8n';
import { SHOP, shopMessage, useScenarioNodeSetup } from '../helpers/shop-scenario';
import { chain, itemsInto, itemsNode, scenarioNode } from '../helpers/workflows';

const SCENARIO = JSON.stringify(SHOP);

describe('Messaging Bot Scenario node: Get Analytics', () => {
	const { dir, emulator, credentials } = useScenarioNodeSetup('mb-analytics-');

	it('gives one item per state and a summary of the conversations the node stepped', async () => {
		const options = { statePath: path.join(dir, 'state.sqlite'), analyticsDays: 30 };
		const messages = [
			...['hi', 'order', '12'].map((text, i) => shopMessage('cl_ada', text, i)),
			...['hi', 'order', 'x', 'y'].map((text, i) => shopMessage('cl_grace', text, i)),
		];
		const handled = await runWorkflow(
			itemsInto(
				messages,
				scenarioNode({ operation: 'handleMessage', scenario: SCENARIO, options }),
			),
			credentials(),
		);
		expect(outputOf(handled, 'Scenario')).toHaveLength(6);
		const read = await runWorkflow(
			itemsInto([{}], scenarioNode({ operation: 'getAnalytics', scenario: SCENARIO, options })),
			credentials(),
		);
		const items = outputOf(read, 'Scenario').map((item) => item.json);
		const today = new Date().toISOString().slice(0, 10);
		const weekAgo = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10);
		expect(items.map((i) => [i.kind, i.state])).toEqual([
			['state', 'welcome'],
			['state', 'ask'],
			['state', 'done'],
			['state', 'human'],
			['summary', ''],
		]);
		expect(items[0]).toMatchObject({ scenario: 'shop', version: 1, from: weekAgo, to: today });
		// Every item has every column, none undefined (n8n's Table view).
		for (const item of items) {
			expect(Object.keys(item)).toEqual(Object.keys(items[0]));
			expect(Object.values(item)).not.toContain(undefined);
		}
		expect(items[0]).toMatchObject({ reached: 2, visits: 2, edges: [{ to: 'ask', count: 2 }] });
		expect(items[0]).toMatchObject({ mainPath: true, inProgress: 0, dropped: 0 });
		expect(items[1]).toMatchObject({
			reached: 2,
			dropped: 0,
			retries: 1,
			giveUps: 1,
			edges: [
				{ to: 'done', count: 1 },
				{ to: 'human', count: 1 },
			],
		});
		expect(items[2]).toMatchObject({ reached: 1, completed: 1, dropOffShare: 0, now: 0 });
		// Handed to a person: not a drop-off.
		expect(items[3]).toMatchObject({ reached: 1, handedOff: 1, dropOffShare: 0, now: 1 });
		expect(items[3]).toMatchObject({ mainPath: false });
		const backwards = await runWorkflow(
			itemsInto(
				[{}],
				scenarioNode({
					operation: 'getAnalytics',
					scenario: SCENARIO,
					analyticsFrom: '2026-11-30T00:00:00',
					analyticsTo: '2026-11-01T23:00:00+05:00',
					options,
				}),
			),
			credentials(),
		);
		expect(backwards.data.resultData.error?.message).toBe(
			'From (2026-11-30) is after To (2026-11-01)',
		);
		expect(items[4]).toMatchObject({
			state: '',
			conversations: 2,
			dropped: 0,
			inProgress: 0,
			completed: 1,
			completionRate: 0.5,
			handoffs: 1,
			handoffRate: 0.5,
			messages: 7,
			replies: { sent: 7, unknown: 0, failed: 0 },
		});
		// Funnel Picture: the summary item carries the funnel as a PNG, the state items nothing.
		const pictured = await runWorkflow(
			itemsInto(
				[{}],
				scenarioNode({
					operation: 'getAnalytics',
					scenario: SCENARIO,
					analyticsFunnelPicture: true,
					options,
				}),
			),
			credentials(),
		);
		const withPicture = outputOf(pictured, 'Scenario');
		expect(withPicture.map((i) => Object.keys(i.binary ?? {}))).toEqual([
			[],
			[],
			[],
			[],
			['funnel'],
		]);
		const file = withPicture[4].binary?.funnel as IBinaryData;
		expect(file).toMatchObject({
			mimeType: 'image/png',
			fileName: `shop-v1-${weekAgo}-funnel.png`,
		});
		const png = readPng(Buffer.from(file.data, 'base64'));
		expect(png.width).toBe(800);
		expect(png.pixels.some((v) => v < 100)).toBe(true);
	});

	it("the weekly-funnel example's nodes post the funnel to the team as one message", async () => {
		const example = JSON.parse(
			readFileSync(path.join(__dirname, '../../examples/workflows/weekly-funnel.json'), 'utf8'),
		) as { nodes: INode[] };
		const [, funnel, post] = example.nodes;
		const options = { statePath: path.join(dir, 'weekly.sqlite') };
		const scenario = String(funnel.parameters.scenario);
		await runWorkflow(
			itemsInto(
				[shopMessage('cl_ada', 'hi', 1)],
				scenarioNode({ operation: 'handleMessage', scenario, options }),
			),
			credentials(),
		);
		// Today's counts (the counters' days are UTC days; n8n's $today is in the workflow's time
		// zone), where the example reads the seven days before today; the team is Grace.
		const reading = {
			...funnel.parameters,
			analyticsTo: '={{ $now.toUTC().toISODate() }}',
			options,
		};
		const team = { __rl: true, mode: 'id', value: 'cl_grace' };
		await runWorkflow(
			chain([
				itemsNode([{}]),
				{
					...funnel,
					credentials: { messagingBotApi: { id: 'a', name: 'API' } },
					parameters: reading,
				},
				{
					...post,
					credentials: { messagingBotApi: { id: 'a', name: 'API' } },
					parameters: { ...post.parameters, clientId: team },
				},
			]),
			credentials(),
		);
		const sent = await sentTexts(emulator(), 'cl_grace');
		expect(sent).toHaveLength(1);
		expect(sent[0]).toMatch(/^Last week's funnel \(\d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}\)\n/);
		expect(sent[0]).toContain('v2 welcome: 1 reached, 0 dropped, 0 handed off, 1 in progress');
		// States nobody reached are left out of the message.
		expect(sent[0]).not.toContain('v2 human:');
		expect(sent[0]).toContain('v2: 1 conversations, 0% completed, 0 handed to a person');
	});
});
