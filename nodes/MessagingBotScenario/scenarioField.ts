import { NodeOperationError, type IExecuteFunctions } from 'n8n-workflow';

import { jsonErrorInWords } from '../../runtime/scenarios';
import { SCENARIO_FORMAT_LINK } from '../shared/documentation';

/**
 * Reads a scenario field. A scenario pasted into an emptied field lands in Expression mode (its
 * text has `{{…}}`), and n8n would then resolve the scenario's own placeholders
 * (`{{client.first_name}}`) to nothing before the node sees them. So the field's text is read as
 * written when it is a JSON document; only an expression that builds the whole scenario
 * (`{{ $json.scenario }}`, `{{ JSON.stringify(…) }}`) is left to n8n.
 */
export function scenarioField(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	fallback: unknown,
): unknown {
	const raw = ctx.getNodeParameter(name, 0, fallback, { rawExpressions: true }) as unknown;
	let text: unknown = raw;
	if (typeof raw === 'string' && raw.startsWith('=')) {
		const body = raw.slice(1);
		text = isDocument(body) ? body : ctx.getNodeParameter(name, 0, fallback);
	}
	if (typeof text !== 'string') return text;
	if (text.trim() === '') return emptyOr(ctx, label, fallback);
	try {
		return JSON.parse(text);
	} catch (error) {
		throw new NodeOperationError(
			ctx.getNode(),
			`${label} ${jsonErrorInWords(text, error as Error)}`,
			{
				description: 'Correct the JSON there and run the step again.',
			},
		);
	}
}

/** Text that starts as a JSON object or list, not as an expression (`{{ … }}`). */
function isDocument(text: string): boolean {
	const start = text.trimStart();
	return start.startsWith('[') || (start.startsWith('{') && !start.startsWith('{{'));
}

function emptyOr(ctx: IExecuteFunctions, label: string, fallback: unknown): unknown {
	if (fallback !== undefined) return fallback;
	throw new NodeOperationError(ctx.getNode(), `${label} is empty`, {
		description: `Paste a scenario there (JSON), or start from one of the examples linked under the field. ${SCENARIO_FORMAT_LINK}.`,
	});
}
