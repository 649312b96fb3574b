import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { renderDiagram, type CompiledScenario } from '../../../runtime/scenarios';
import type { OfflineOperation } from './types';

/** Get Diagram: one item per scenario with its Mermaid stateDiagram-v2 text. */
export const getDiagram: OfflineOperation = {
	description: [],
	async offline(scenarios) {
		return diagram.call(this, scenarios);
	},
};

function diagram(
	this: IExecuteFunctions,
	scenarios: readonly CompiledScenario[],
): INodeExecutionData[][] {
	const out = scenarios.map((s) => ({
		json: { scenario: s.id, version: s.version, mermaid: renderDiagram(s.document) },
		pairedItem: { item: 0 },
	}));
	return [out, []];
}
