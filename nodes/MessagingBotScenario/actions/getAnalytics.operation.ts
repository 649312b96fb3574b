import { NodeOperationError, type IDataObject, type INodeExecutionData } from 'n8n-workflow';

import type { AnalyticsReport } from '../../../runtime/scenarios';
import type { ScenarioOperation } from './types';

const show = { operation: ['getAnalytics'] };
const DAY = 86_400_000;

/**
 * Get Analytics: the funnel of this scenario's conversations over a period, per version: one item
 * per state, then a summary item.
 */
export const getAnalytics: ScenarioOperation = {
	description: [
		{
			displayName: 'From',
			name: 'analyticsFrom',
			type: 'dateTime',
			default: '',
			displayOptions: { show },
			description: 'The first day counted (UTC); empty: 7 days before To',
		},
		{
			displayName: 'To',
			name: 'analyticsTo',
			type: 'dateTime',
			default: '',
			displayOptions: { show },
			description: 'The last day counted (UTC), included; empty: today',
		},
		{
			displayName: 'Per Day',
			name: 'analyticsPerDay',
			type: 'boolean',
			default: false,
			displayOptions: { show },
			description: 'Whether to give the funnel of each day, instead of one for the whole period',
		},
	],
	async execute(engine) {
		const day = (name: string, label: string): string | undefined => {
			const value = String(this.getNodeParameter(name, 0, '') ?? '').trim();
			if (value === '') return undefined;
			// The day picked, whatever the time and offset after it (n8n's dates carry both).
			const picked = /^\d{4}-\d{2}-\d{2}/.exec(value)?.[0];
			const ms = Date.parse(value);
			if (picked) return picked;
			if (Number.isNaN(ms))
				throw new NodeOperationError(this.getNode(), `${label} is not a date: "${value}"`);
			return new Date(ms).toISOString().slice(0, 10);
		};
		const to = day('analyticsTo', 'To') ?? new Date().toISOString().slice(0, 10);
		const from =
			day('analyticsFrom', 'From') ?? new Date(Date.parse(to) - 6 * DAY).toISOString().slice(0, 10);
		if (from > to)
			throw new NodeOperationError(this.getNode(), `From (${from}) is after To (${to})`, {
				description: 'Pick a From day on or before the To day.',
			});
		const perDay = this.getNodeParameter('analyticsPerDay', 0, false) as boolean;
		const report = await engine.analytics({ from, to, perDay });
		return [itemsOf(report), []];
	},
};

/** One item per state of each scenario version (and day, per day), then its summary. */
function itemsOf(report: AnalyticsReport): INodeExecutionData[] {
	const items: INodeExecutionData[] = [];
	for (const funnel of report.versions) {
		const about = {
			scenario: funnel.scenario,
			version: funnel.version,
			from: funnel.from,
			to: funnel.to,
		};
		for (const state of funnel.states)
			items.push({
				json: { kind: 'state', ...about, ...state } as IDataObject,
				pairedItem: { item: 0 },
			});
		items.push({
			json: { kind: 'summary', ...about, ...funnel.summary } as IDataObject,
			pairedItem: { item: 0 },
		});
	}
	return items;
}
