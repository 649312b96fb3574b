import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { renderDiagram, renderPictures, type CompiledScenario } from '../../../runtime/scenarios';
import type { OfflineOperation } from './types';

/**
 * Get Diagram: one item per scenario with its Mermaid stateDiagram-v2 text, and the scenario
 * drawn as binary data: "diagram", a PNG, which n8n's output panel shows (it does not show SVG),
 * and "svg", the same picture as an SVG file.
 */
export const getDiagram: OfflineOperation = {
	description: [],
	async offline(scenarios) {
		return diagram.call(this, scenarios);
	},
};

async function diagram(
	this: IExecuteFunctions,
	scenarios: readonly CompiledScenario[],
): Promise<INodeExecutionData[][]> {
	const out: INodeExecutionData[] = [];
	for (const s of scenarios) {
		const picture = renderPictures(s.document);
		const png = Buffer.from(picture.png);
		const svg = Buffer.from(picture.svg, 'utf8');
		out.push({
			json: { scenario: s.id, version: s.version, mermaid: renderDiagram(s.document) },
			binary: {
				diagram: await this.helpers.prepareBinaryData(png, `${s.id}.png`, 'image/png'),
				svg: await this.helpers.prepareBinaryData(svg, `${s.id}.svg`, 'image/svg+xml'),
			},
			pairedItem: { item: 0 },
		});
	}
	return [out, []];
}
