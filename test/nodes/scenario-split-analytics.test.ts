/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: a temporary state file, never loaded by n8n */
import path from 'node:path';

import { outputOf, runWorkflow } from '../helpers/n8n';
import { shopMessage, useScenarioNodeSetup } from '../helpers/shop-scenario';
import { itemsInto, scenarioNode } from '../helpers/workflows';
import { greetingTest } from '../scenarios/split-fixture';

const SCENARIO = JSON.stringify({ ...greetingTest(), id: 'shop' });

describe('Messaging Bot Scenario node: Get Analytics of a split test', () => {
	const { dir, credentials } = useScenarioNodeSetup('mb-split-');

	it('gives one item per variant with its clients, goal, interval and the verdict', async () => {
		const options = { statePath: path.join(dir, 'state.sqlite'), analyticsDays: 30 };
		const clients = Array.from({ length: 12 }, (_, i) => `cl_${i}`);
		const messages = clients.map((client) => shopMessage(client, 'hi', 0));
		const handled = await runWorkflow(
			itemsInto(
				messages,
				scenarioNode({ operation: 'handleMessage', scenario: SCENARIO, options }),
			),
			credentials(),
		);
		// Which variant each client got: the state its greeting left it in.
		const variantOf = new Map(
			outputOf(handled, 'Scenario').map((item) => [item.json.client_id, item.json.state]),
		);
		const buyers = clients.slice(0, 5);
		await runWorkflow(
			itemsInto(
				buyers.map((client) => shopMessage(client, 'yes', 1)),
				scenarioNode({ operation: 'handleMessage', scenario: SCENARIO, options }),
			),
			credentials(),
		);
		const read = await runWorkflow(
			itemsInto([{}], scenarioNode({ operation: 'getAnalytics', scenario: SCENARIO, options })),
			credentials(),
		);
		const items = outputOf(read, 'Scenario').map((item) => item.json);
		const variants = items.filter((i) => i.kind === 'variant');
		const expected = (variant: string) => {
			const mine = clients.filter((c) => variantOf.get(c) === variant);
			return {
				test: 'greeting',
				variant,
				clients: mine.length,
				goalReached: mine.filter((c) => buyers.includes(c)).length,
			};
		};
		expect(variants).toMatchObject([expected('short'), expected('warm')]);
		for (const v of variants) {
			expect(v).toMatchObject({ scenario: 'shop', verdictReady: false, best: false });
			expect(v.verdict).toMatch(
				/^not enough data yet \(about [\d,]+ more clients needed to tell a difference of 5 points\)$/,
			);
			expect(Number(v.conversionLow)).toBeLessThanOrEqual(Number(v.conversion));
			expect(Number(v.conversionHigh)).toBeGreaterThanOrEqual(Number(v.conversion));
		}
		expect(Number(variants[0].probabilityBest) + Number(variants[1].probabilityBest)).toBeCloseTo(
			1,
			9,
		);
		// Every item has every column (n8n's Table view).
		for (const item of items) expect(Object.keys(item)).toEqual(Object.keys(items[0]));
	});
});
