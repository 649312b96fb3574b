import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { AnalyticsReport } from '../../../runtime/scenarios';
import { periodOf } from './period';
import type { ScenarioOperation } from './types';

const show = { operation: ['getAnalytics'] };

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
		const { from, to } = periodOf(this, 'analyticsFrom', 'analyticsTo');
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
