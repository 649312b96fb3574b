import { NodeOperationError, type IExecuteFunctions } from 'n8n-workflow';

import { trafficPeriod } from '../../../runtime/scenarios';

/**
 * The From and To days of a period (UTC, inclusive) from two date parameters: To defaults to
 * today, From to 6 days before To. The day picked counts, whatever the time and offset n8n's
 * dates carry after it.
 */
export function periodOf(
	ctx: IExecuteFunctions,
	fromName: string,
	toName: string,
): { from: string; to: string } {
	const day = (name: string, label: string): string | undefined => {
		const value = String(ctx.getNodeParameter(name, 0, '') ?? '').trim();
		if (value === '') return undefined;
		const picked = /^\d{4}-\d{2}-\d{2}/.exec(value)?.[0];
		const ms = Date.parse(value);
		if (picked) return picked;
		if (Number.isNaN(ms))
			throw new NodeOperationError(ctx.getNode(), `${label} is not a date: "${value}"`);
		return new Date(ms).toISOString().slice(0, 10);
	};
	const { from, to } = trafficPeriod({ from: day(fromName, 'From'), to: day(toName, 'To') });
	if (from > to)
		throw new NodeOperationError(ctx.getNode(), `From (${from}) is after To (${to})`, {
			description: 'Pick a From day on or before the To day.',
		});
	return { from, to };
}
