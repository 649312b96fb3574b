import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { trafficOf, type AnalyticsReport } from '../../../runtime/scenarios';
import { funnelFile } from './funnel';
import { periodOf } from './period';
import type { ScenarioOperation } from './types';

const show = { operation: ['getAnalytics'] };

/**
 * Get Analytics: the funnel of this scenario's conversations over a period, per version: one item
 * per state, then a summary item; then one item per variant of each split test, with its verdict.
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
		{
			displayName: 'Quiet Time (Hours)',
			name: 'analyticsQuietHours',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 2 },
			default: 24,
			displayOptions: { show },
			description:
				'A conversation that stopped in a state with no message from the client for this long counts as dropped there; a more recent one is still in progress',
		},
		{
			displayName: 'Funnel Picture',
			name: 'analyticsFunnelPicture',
			type: 'boolean',
			default: false,
			displayOptions: { show },
			description:
				'Whether to add the main path\'s funnel as a PNG (binary "funnel") to each summary item: a bar per state as long as the conversations that reached it, the drop between states',
		},
	],
	async execute(engine) {
		const { from, to } = periodOf(this, 'analyticsFrom', 'analyticsTo');
		const perDay = this.getNodeParameter('analyticsPerDay', 0, false) as boolean;
		const quietHours = Number(this.getNodeParameter('analyticsQuietHours', 0, 24));
		if (!Number.isFinite(quietHours) || quietHours < 0)
			throw new NodeOperationError(
				this.getNode(),
				`Quiet Time (Hours) must be a number of hours, 0 or more (got ${String(quietHours)})`,
			);
		const report = await engine.analytics({ from, to, perDay, quietMs: quietHours * 3_600_000 });
		const items = sameColumns([...itemsOf(report), ...variantItems(report)]);
		if (this.getNodeParameter('analyticsFunnelPicture', 0, false) as boolean)
			await addFunnels(this, report, items);
		return [items, []];
	},
};

/**
 * Every item with every column (null where it has none): n8n's Table view shows a column one
 * item lacks as a red "undefined".
 */
function sameColumns(items: INodeExecutionData[]): INodeExecutionData[] {
	const columns = new Set(items.flatMap((item) => Object.keys(item.json)));
	return items.map((item) => {
		const json: IDataObject = {};
		for (const column of columns) json[column] = item.json[column] ?? null;
		return { ...item, json };
	});
}

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
		const onPath = new Set(funnel.mainPath);
		for (const state of funnel.states)
			items.push({
				json: {
					kind: 'state',
					...about,
					...state,
					mainPath: onPath.has(state.state),
				} as IDataObject,
				pairedItem: { item: 0 },
			});
		items.push({
			json: { kind: 'summary', ...about, state: '', ...funnel.summary } as IDataObject,
			pairedItem: { item: 0 },
		});
	}
	return items;
}

/**
 * One item per variant of each split test over the whole period (all versions: ending a test is a
 * new version), its test's verdict on each.
 */
function variantItems(report: AnalyticsReport): INodeExecutionData[] {
	return report.splits.flatMap((split) =>
		split.variants.map((v) => ({
			json: {
				kind: 'variant',
				scenario: split.scenario,
				version: null,
				from: report.from,
				to: report.to,
				state: '',
				test: split.test,
				variant: v.variant,
				clients: v.clients,
				goalReached: v.goal,
				conversion: v.conversion,
				conversionLow: v.interval?.low ?? null,
				conversionHigh: v.interval?.high ?? null,
				probabilityBest: v.probabilityBest,
				best: split.verdict.best === v.variant,
				verdict: split.verdict.text,
				verdictReady: split.verdict.ready,
				moreClientsNeeded: split.verdict.moreClients,
			} as IDataObject,
			pairedItem: { item: 0 },
		})),
	);
}

/** Each summary item (one per version, and day) with its funnel as binary `funnel`. */
async function addFunnels(
	ctx: IExecuteFunctions,
	report: AnalyticsReport,
	items: INodeExecutionData[],
): Promise<void> {
	const summaries = items.filter((item) => item.json.kind === 'summary');
	for (const [i, funnel] of report.versions.entries()) {
		const traffic = {
			from: funnel.from,
			to: funnel.to,
			...trafficOf({ ...report, versions: [funnel] }),
		};
		const title = `${funnel.scenario} v${funnel.version}`;
		const file = `${funnel.scenario}-v${funnel.version}-${funnel.from}`;
		summaries[i].binary = { funnel: await funnelFile(ctx, traffic, title, file) };
	}
}
