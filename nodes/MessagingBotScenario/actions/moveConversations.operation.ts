import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { MoveError, type MovePlan, type MoveReport } from '../../../runtime/scenarios';
import type { ScenarioOperation } from './types';

const show = { operation: ['moveConversations'] };

/**
 * Move Conversations: the live conversations of one version moved to another, state by state
 * (States to Map); a preview first (Preview Only, on by default): how many sit in each state and
 * where each lands.
 */
export const moveConversations: ScenarioOperation = {
	description: [
		{
			displayName: 'From Version',
			name: 'moveFrom',
			type: 'number',
			default: 1,
			required: true,
			typeOptions: { minValue: 1 },
			displayOptions: { show },
			description: 'The version whose live conversations move (Get Versions lists them)',
		},
		{
			displayName: 'To Version',
			name: 'moveTo',
			type: 'number',
			default: 0,
			typeOptions: { minValue: 0 },
			displayOptions: { show },
			description: 'The version they move to; 0: the version in the Scenario field',
		},
		{
			displayName: 'States to Map',
			name: 'moveStates',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add State',
			default: {},
			displayOptions: { show },
			description: 'Where a conversation in each old state goes in the new version',
			options: [
				{
					displayName: 'State',
					name: 'pairs',
					values: [
						{ displayName: 'Old State', name: 'from', type: 'string', default: '' },
						{ displayName: 'New State', name: 'to', type: 'string', default: '' },
					],
				},
			],
		},
		{
			displayName: 'Unmapped States',
			name: 'moveUnmapped',
			type: 'options',
			default: 'finish',
			displayOptions: { show },
			description: 'A conversation in a state the map leaves out',
			options: [
				{
					name: 'Finish on Their Version',
					value: 'finish',
					description: 'It stays where it is until it ends',
				},
				{
					name: 'Start Over',
					value: 'restart',
					description: "It ends now; the client's next message starts the live version",
				},
			],
		},
		{
			displayName: 'Preview Only',
			name: 'movePreview',
			type: 'boolean',
			default: true,
			displayOptions: { show },
			description:
				'Whether to only show how many conversations sit in each state and where each would land, moving none',
		},
	],
	async execute(engine) {
		const plan = planOf(this);
		try {
			if (this.getNodeParameter('movePreview', 0, true) as boolean) {
				const preview = await engine.previewMove(plan);
				const about = { from_version: preview.from.version, to_version: preview.to.version };
				return [preview.states.map((row) => ({ json: { ...about, ...row } as IDataObject })), []];
			}
			const report = await engine.moveConversations(plan);
			return [reportItems(report), []];
		} catch (error) {
			// A map that does not fit the versions names the field; anything else as it came.
			const message = error instanceof MoveError ? error.message : undefined;
			throw new NodeOperationError(this.getNode(), message ?? (error as Error));
		}
	},
};

function planOf(ctx: IExecuteFunctions): MovePlan {
	const pairs = ctx.getNodeParameter('moveStates.pairs', 0, []) as Array<{
		from: string;
		to: string;
	}>;
	const states: Record<string, string> = {};
	for (const { from, to } of pairs) if (from.trim() !== '') states[from.trim()] = to.trim();
	const to = Number(ctx.getNodeParameter('moveTo', 0, 0));
	return {
		from: Number(ctx.getNodeParameter('moveFrom', 0)),
		...(to > 0 ? { to } : {}),
		states,
		unmapped: ctx.getNodeParameter('moveUnmapped', 0, 'finish') as MovePlan['unmapped'],
	};
}

/** A summary item, then one per conversation that could not move. */
function reportItems(report: MoveReport): INodeExecutionData[] {
	const summary = {
		kind: 'summary',
		from_version: report.from.version,
		to_version: report.to.version,
		moved: report.moved,
		stayed: report.stayed,
		restarted: report.restarted,
		not_moved: report.notMoved.length,
	};
	const left = report.notMoved.map((n) => ({ kind: 'not moved', ...n }));
	return [summary, ...left].map((json) => ({ json: json as IDataObject }));
}
