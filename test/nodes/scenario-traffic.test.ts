/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: file paths and the SVG parser, never loaded by n8n */
import path from 'node:path';

import type { IBinaryData } from 'n8n-workflow';
import { parseStringPromise } from 'xml2js';

import { renderFunnel, type FunnelTraffic } from '../../runtime/scenarios/offline/picture';
import { scenarioGraph } from '../../runtime/scenarios/offline/picture/graph';
import { readPng } from '../../scripts/lib/png-read';
import { outputOf, runWorkflow } from '../helpers/n8n';
import { SHOP, shopMessage, useScenarioNodeSetup } from '../helpers/shop-scenario';
import { byAttribute, type XmlElement } from '../helpers/svg';
import { itemsInto, scenarioNode } from '../helpers/workflows';

const scenario = JSON.stringify(SHOP);

/** The SVG of Get Diagram's one item, parsed: each state's traffic line, each arrow's width. */
async function picture(item: { binary?: Record<string, IBinaryData> }) {
	const svg = Buffer.from((item.binary?.svg as IBinaryData).data, 'base64').toString('utf8');
	const xml: unknown = await parseStringPromise(svg, { strict: true });
	const states = byAttribute(xml, 'data-state');
	const edges = byAttribute(xml, 'data-edge');
	const traffic = (state: string) =>
		[...byAttribute(states.get(state), 'data-traffic').keys()][0] ?? '';
	const id = (from: string, to: string) =>
		scenarioGraph(SHOP).edges.find((e) => e.source === from && e.target === to)?.id ?? '';
	const width = (from: string, to: string) =>
		Number((edges.get(id(from, to))?.path as XmlElement[])[0].$?.['stroke-width']);
	return { svg, traffic, width };
}

/** The funnel beside the diagram: a PNG drawn on, and bars as long as the reading's reached. */
async function funnelDrawn(item: {
	json: Record<string, unknown>;
	binary?: Record<string, IBinaryData>;
}) {
	const file = item.binary?.funnel as IBinaryData;
	expect(file).toMatchObject({ mimeType: 'image/png', fileName: 'shop-funnel.png' });
	const png = readPng(Buffer.from(file.data, 'base64'));
	expect(png.width).toBe(800);
	let inked = 0;
	for (let i = 0; i < png.pixels.length; i += png.channels)
		if (png.pixels[i] + png.pixels[i + 1] + png.pixels[i + 2] < 600) inked++;
	expect(inked / (png.width * png.height)).toBeGreaterThan(0.02);
	// The same drawing as SVG, from the item's traffic: welcome 3, ask 3, done 2.
	const traffic = item.json.traffic as FunnelTraffic;
	const xml: unknown = await parseStringPromise(renderFunnel(traffic, 'shop').svg, {
		strict: true,
	});
	const rows = byAttribute(xml, 'data-funnel-state');
	expect([...rows.keys()]).toEqual(['welcome', 'ask', 'done']);
	const bar = (state: string) => Number((rows.get(state)?.rect as XmlElement[])[0].$?.width);
	expect(bar('welcome')).toBeGreaterThan(0);
	expect(bar('ask')).toBe(bar('welcome'));
	expect(bar('done') / bar('welcome')).toBeCloseTo(2 / 3, 2);
	expect([...byAttribute(xml, 'data-lost').keys()]).toEqual(['0', '1']);
	expect([...byAttribute(xml, 'data-apart').keys()]).toEqual(['1 0']);
}

describe('Messaging Bot Scenario node: Get Diagram with Draw Traffic', () => {
	const { dir, credentials } = useScenarioNodeSetup('mb-traffic-');

	it("draws the period's counts from the node's store on the picture", async () => {
		const options = { statePath: path.join(dir, 'state.sqlite') };
		const messages = [
			...['hi', 'order', '12'].map((text, i) => shopMessage('cl_ada', text, i)),
			...['hi', 'order', 'x', 'y'].map((text, i) => shopMessage('cl_grace', text, i)),
			...['hi', 'order', '7'].map((text, i) => shopMessage('cl_alan', text, i)),
		];
		const handled = await runWorkflow(
			itemsInto(messages, scenarioNode({ operation: 'handleMessage', scenario, options })),
			credentials(),
		);
		expect(outputOf(handled, 'Scenario')).toHaveLength(9);
		// No Messaging Bot API credential: drawing reads the store alone.
		const drawn = await runWorkflow(
			itemsInto(
				[{}],
				scenarioNode({ operation: 'getDiagram', scenario, drawTraffic: true, options }),
			),
			{},
		);
		expect(drawn.data.resultData.error).toBeUndefined();
		const [item] = outputOf(drawn, 'Scenario');
		const today = new Date().toISOString().slice(0, 10);
		expect(item.json.traffic).toMatchObject({
			to: today,
			// Handed off and completed are not dropped off.
			states: {
				welcome: { entered: 3, dropOff: 0 },
				human: { entered: 1, dropOff: 0, handedOff: 1 },
				done: { entered: 2, dropOff: 0, completed: 2 },
			},
			// The scenario's main path, from its document: the funnel's bars.
			mainPath: ['welcome', 'ask', 'done'],
		});
		const { svg, traffic, width } = await picture(item);
		expect(traffic('welcome')).toBe('3 0');
		expect(traffic('ask')).toBe('3 0');
		expect(traffic('done')).toBe('2 0');
		expect(traffic('human')).toBe('1 0');
		expect(svg).toContain('3 entered · 0 dropped off (0%)');
		expect(svg).toContain('1 entered · 0 dropped off (0%)');
		// Taken three times, twice, once, never: each arrow narrower than the one before.
		expect(width('welcome', 'ask')).toBeGreaterThan(width('ask', 'done'));
		expect(width('ask', 'done')).toBeGreaterThan(width('ask', 'human'));
		expect(width('ask', 'human')).toBeGreaterThan(width('welcome', 'human'));
		expect(width('welcome', 'human')).toBe(1);

		await funnelDrawn(item);

		// Another period: the same picture with nothing counted.
		const before = await runWorkflow(
			itemsInto(
				[{}],
				scenarioNode({
					operation: 'getDiagram',
					scenario,
					drawTraffic: true,
					trafficFrom: '2025-01-01T00:00:00',
					trafficTo: '2025-01-07T00:00:00',
					options,
				}),
			),
			{},
		);
		const old = await picture(outputOf(before, 'Scenario')[0]);
		expect(old.traffic('welcome')).toBe('0 0');
		expect(old.width('welcome', 'ask')).toBe(1);
	});

	it('draws no traffic and opens no store when Draw Traffic is off', async () => {
		const drawn = await runWorkflow(
			itemsInto(
				[{}],
				scenarioNode({
					operation: 'getDiagram',
					scenario,
					// A file that cannot be created: opening the store would fail.
					options: { statePath: '/proc/none/state.sqlite' },
				}),
			),
			{},
		);
		expect(drawn.data.resultData.error).toBeUndefined();
		const [item] = outputOf(drawn, 'Scenario');
		expect(item.json.traffic).toBeUndefined();
		expect(item.binary?.funnel).toBeUndefined();
		expect((await picture(item)).svg).not.toContain('data-traffic');
	});
});
