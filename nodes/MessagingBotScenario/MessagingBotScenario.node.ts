import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import exampleScenario from '../../examples/scenarios/order-status.json';
import { operationFields, operationProperty } from './actions';
import { router } from './actions/router';
import {
	messagingBotPostgresPing,
	messagingBotRedisPing,
	refuseLossyRedisOption,
	statePathOption,
	stateStoreProperty,
} from '../shared/stateStore';
import { conversationScopeOption } from '../shared/conversationScope';
import { DOCS, SCENARIO_FORMAT_LINK } from '../shared/documentation';
import { operationNames, subtitleFrom } from '../shared/subtitle';

/** The order-status example, less its editor-only schema link: a starting point users edit in place. */
const EXAMPLE_SCENARIO = JSON.stringify(
	exampleScenario,
	(key, value: unknown) => (key === '$schema' ? undefined : value),
	2,
);

export class MessagingBotScenario implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Messaging Bot Scenario',
		name: 'messagingBotScenario',
		icon: { light: 'file:messagingBotScenario.svg', dark: 'file:messagingBotScenario.dark.svg' },
		group: ['transform'],
		version: 1,
		// The operation's name as the dropdown shows it, never its internal value.
		subtitle: subtitleFrom(operationNames([operationProperty]), '$parameter["operation"]'),
		description:
			'Runs a bot scenario (a state machine written as JSON) on each message a client sends, and replies',
		defaults: { name: 'Messaging Bot Scenario' },
		// Used as is by the editor's Docs link (the codex URL would get tracking added after the anchor).
		documentationUrl: DOCS.scenario,
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main, NodeConnectionTypes.Main],
		outputNames: ['Handled', 'Needs a Human'],
		// Test Conversation and Get Diagram read the scenario alone: no account is needed to try one.
		credentials: [
			{
				name: 'messagingBotApi',
				required: true,
				displayOptions: { hide: { operation: ['testConversation', 'getDiagram'] } },
			},
			{
				name: 'messagingBotRedisApi',
				required: true,
				testedBy: 'messagingBotRedisPing',
				// Shown with the Storage parameter: Test Conversation has none, Get Diagram only to draw traffic.
				displayOptions: { show: { stateStore: ['redis'] } },
			},
			{
				name: 'messagingBotPostgresApi',
				required: true,
				testedBy: 'messagingBotPostgresPing',
				displayOptions: { show: { stateStore: ['postgres'] } },
			},
		],
		properties: [
			operationProperty,
			{
				displayName: 'Scenario',
				name: 'scenario',
				type: 'json',
				typeOptions: { rows: 20 },
				default: EXAMPLE_SCENARIO,
				required: true,
				description: `The scenario as JSON: what the bot says, asks and checks, and when it hands over to a person. Every problem is listed, one per line, by its place in the scenario when the node runs. ${SCENARIO_FORMAT_LINK}.`,
			},
			...operationFields,
			{
				...stateStoreProperty('conversations and timers'),
				displayOptions: { hide: { operation: ['testConversation', 'getDiagram'] } },
			},
			// The same parameter for Get Diagram, which reads the store only to draw traffic. Declared
			// twice: n8n shows a parameter when one of its declarations matches, and one declaration's
			// rules cannot say "this operation, or that one with Draw Traffic on".
			{
				...stateStoreProperty('conversations and timers'),
				displayOptions: { show: { operation: ['getDiagram'], drawTraffic: [true] } },
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					conversationScopeOption,
					{
						displayName: 'Keep Analytics (Days)',
						name: 'analyticsDays',
						type: 'number',
						default: 90,
						typeOptions: { minValue: 1 },
						description:
							'How many days of step counts Get Analytics can read; older days are forgotten',
					},
					{
						displayName: 'Keep Conversations (Days)',
						name: 'retentionDays',
						type: 'number',
						default: 30,
						typeOptions: { minValue: 1 },
						description:
							'A conversation untouched for this long is forgotten; the client then starts afresh',
					},
					{
						displayName: 'Late Messages',
						name: 'latePolicy',
						type: 'options',
						default: 'ignore',
						description:
							'A message written before one the conversation already answered (a redelivery that came late)',
						options: [
							{
								name: 'Ignore',
								value: 'ignore',
								description: 'Record it as late and answer nothing',
							},
							{
								name: 'Apply',
								value: 'apply',
								description: 'Step the conversation with it all the same, marked late',
							},
							{
								name: 'Hand to a Person',
								value: 'handoff',
								description: 'The bot goes silent for this client until released',
							},
						],
					},
					{
						displayName: 'Live Conversations',
						name: 'liveConversations',
						type: 'options',
						default: 'finish',
						description:
							'A conversation that started on an older version of this scenario, when a newer one is live',
						options: [
							{
								name: 'Finish on Their Version',
								value: 'finish',
								description:
									'It finishes on the version it started on (its replies, captures and timers); the next conversation starts on this one. The output says "older_version" for a message handled so.',
							},
							{
								name: 'Move to This Version',
								value: 'move',
								description:
									'It goes on in this version where its state has the same name, or starts over where the state is gone',
							},
						],
					},
					{
						displayName: 'Other Scenarios',
						name: 'otherScenarios',
						type: 'json',
						default: '[]',
						description:
							'More scenarios (a JSON list) that this one can jump to with a "goto" action',
					},
					{
						displayName: 'Reorder',
						name: 'reorderMode',
						type: 'options',
						default: 'adaptive',
						description:
							'How a message waits for one its client wrote earlier that is still on its way, so the bot answers in the order written',
						options: [
							{
								name: 'Fixed Window',
								value: 'fixed',
								description: 'Every message waits the whole Reorder Window before it is answered',
							},
							{
								name: 'Only While Needed',
								value: 'adaptive',
								description:
									'A message waits only as long as deliveries have lately been overtaking one another (a burst), never longer than the Reorder Window; while they arrive in the order written (n8n idle), the bot answers at once (right after n8n starts, until a few messages were seen: after a quarter of the window)',
							},
						],
					},
					{
						displayName: 'Reorder Window (Seconds)',
						name: 'reorderWindowSeconds',
						type: 'number',
						default: 1,
						typeOptions: { minValue: 0, maxValue: 10, numberPrecision: 1 },
						description:
							'The longest a message waits for one its client wrote earlier that is still on its way (with Reorder: Fixed Window, every message waits this long). 0 answers in the order received.',
					},
					statePathOption('conversations and timers'),
					refuseLossyRedisOption(),
				],
			},
		],
	};

	methods = { credentialTest: { messagingBotPostgresPing, messagingBotRedisPing } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
