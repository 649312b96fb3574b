import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { renderDiagram, renderPicture, type CompiledScenario } from '../../../runtime/scenarios';
import type { OfflineOperation } from './types';

/**
 * Get Diagram: one item per scenario with its Mermaid stateDiagram-v2 text and, as binary data
 * "diagram", the same scenario as an SVG picture, which n8n's output panel shows.
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
		const svg = Buffer.from(renderPicture(s.document), 'utf8');
		out.push({
			json: { scenario: s.id, version: s.version, mermaid: renderDiagram(s.document) },
			binary: {
				diagram: await this.helpers.prepareBinaryData(svg, `${s.id}.svg`, 'image/svg+xml'),
			},
			pairedItem: { item: 0 },
		});
	}
	return [out, []];
}
