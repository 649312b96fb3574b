import type { IBinaryData, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import {
	readTraffic,
	renderDiagram,
	renderPictures,
	stateOrder,
	undrawn,
	type CompiledScenario,
	type Traffic,
} from '../../../runtime/scenarios';
import { storeFor } from '../fromParameters';
import { funnelFile } from './funnel';
import { periodOf } from './period';
import type { OfflineOperation } from './types';

const traffic = { operation: ['getDiagram'], drawTraffic: [true] };

type Seen = Traffic & { from: string; to: string };

/**
 * Get Diagram: one item per scenario with its Mermaid stateDiagram-v2 text, and the scenario
 * drawn as binary data: "diagram", a PNG, which n8n's output panel shows (it does not show SVG),
 * and "svg", the same picture as an SVG file. With Draw Traffic, a period's counts from the
 * node's state store are drawn on it and "funnel" is the main path's funnel as a PNG; without,
 * no store is opened. Characters none of the PNG's fonts draws are named once, in "notDrawn".
 */
export const getDiagram: OfflineOperation = {
	description: [
		{
			displayName: 'Draw Traffic',
			name: 'drawTraffic',
			type: 'boolean',
			default: false,
			displayOptions: { show: { operation: ['getDiagram'] } },
			description:
				"Whether to draw a period's traffic from the Storage below: boxes shaded by conversations entered, arrows as wide as they were taken, drop-off in red",
		},
		{
			displayName: 'From',
			name: 'trafficFrom',
			type: 'dateTime',
			default: '',
			displayOptions: { show: traffic },
			description: 'The first day counted (UTC); empty: 6 days before To',
		},
		{
			displayName: 'To',
			name: 'trafficTo',
			type: 'dateTime',
			default: '',
			displayOptions: { show: traffic },
			description: 'The last day counted (UTC), included; empty: today',
		},
	],
	async offline(scenarios) {
		const drawn = this.getNodeParameter('drawTraffic', 0, false) as boolean;
		return diagram.call(this, scenarios, drawn ? await trafficOf(this, scenarios) : undefined);
	},
};

/** Each scenario's traffic over the period in the node's scope, with its main path (a funnel). */
async function trafficOf(
	ctx: IExecuteFunctions,
	scenarios: readonly CompiledScenario[],
): Promise<Map<string, Seen>> {
	const period = periodOf(ctx, 'trafficFrom', 'trafficTo');
	const { store, scope } = await storeFor(ctx, scenarios[0]);
	const found = new Map<string, Seen>();
	for (const s of scenarios)
		found.set(
			s.id,
			await readTraffic(store, { scenario: s.id, scope, ...period, order: stateOrder(s.document) }),
		);
	return found;
}

async function diagram(
	this: IExecuteFunctions,
	scenarios: readonly CompiledScenario[],
	traffic: Map<string, Seen> | undefined,
): Promise<INodeExecutionData[][]> {
	const out: INodeExecutionData[] = [];
	for (const s of scenarios) {
		const seen = traffic?.get(s.id);
		const picture = renderPictures(s.document, seen ? { traffic: seen } : {});
		const png = Buffer.from(picture.png);
		const svg = Buffer.from(picture.svg, 'utf8');
		out.push({
			json: {
				scenario: s.id,
				version: s.version,
				mermaid: renderDiagram(s.document),
				...(seen ? { traffic: { ...seen } } : {}),
				...(picture.missing.length ? { notDrawn: undrawn(picture.missing) } : {}),
			},
			binary: {
				diagram: await this.helpers.prepareBinaryData(png, `${s.id}.png`, 'image/png'),
				svg: await this.helpers.prepareBinaryData(svg, `${s.id}.svg`, 'image/svg+xml'),
				...(seen ? { funnel: await funnelFile(this, seen, s.id) } : {}),
				...(await pageFiles(this, picture.pages, s.id)),
			},
			pairedItem: { item: 0 },
		});
	}
	return [out, []];
}

/** A diagram wider than the output panel, cut into pages "page1", "page2"… left to right. */
async function pageFiles(
	ctx: IExecuteFunctions,
	pages: readonly Uint8Array[],
	id: string,
): Promise<Record<string, IBinaryData>> {
	const files: Record<string, IBinaryData> = {};
	for (const [i, page] of pages.entries())
		files[`page${i + 1}`] = await ctx.helpers.prepareBinaryData(
			Buffer.from(page),
			`${id}-page${i + 1}.png`,
			'image/png',
		);
	return files;
}
