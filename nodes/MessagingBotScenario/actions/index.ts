import type { INodeProperties } from 'n8n-workflow';

import { workflowsProperty } from './descriptions';
import { getDiagram } from './getDiagram.operation';
import { getAnalytics } from './getAnalytics.operation';
import { getConversation } from './getConversation.operation';
import { getVersions } from './getVersions.operation';
import { handleMessage } from './handleMessage.operation';
import { moveConversations } from './moveConversations.operation';
import { release } from './release.operation';
import { runDueWork } from './runDueWork.operation';
import { testConversation } from './testConversation.operation';
import type { OfflineOperation, ScenarioOperation } from './types';

/** Every operation by its value in the picker below; the offline ones need no store. */
export const operations: Record<string, ScenarioOperation | OfflineOperation> = {
	handleMessage,
	// Run Due Work is stored as `fireTimers`, its value before it did more than fire timers: saved
	// workflows hold that value, so renaming it would break them.
	fireTimers: runDueWork,
	release,
	getConversation,
	getDiagram,
	getAnalytics,
	getVersions,
	moveConversations,
	testConversation,
};

/** The operation picker. */
export const operationProperty: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	default: 'handleMessage',
	options: [
		{
			name: 'Get Analytics',
			value: 'getAnalytics',
			action: 'Get the funnel analytics',
			description:
				'How conversations went over a period: per state the conversations that reached it and its visits, where those that stopped there stand (ended, handed off, dropped, in progress), time to the next state and where they went; a summary per scenario version; per split test variant its clients, goal reached and the verdict',
		},
		{
			name: 'Get Conversation',
			value: 'getConversation',
			action: 'Get a conversation',
			description: "The state, variables and last actions of a client's conversation",
		},
		{
			name: 'Get Diagram',
			value: 'getDiagram',
			action: 'Get the scenario diagram',
			description: 'The scenario as a Mermaid state diagram, to review its flow',
		},
		{
			name: 'Get Versions',
			value: 'getVersions',
			action: 'Get the scenario versions',
			description:
				'The scenario versions the storage has seen, the latest first: dates, content hash, and how many conversations still run on each',
		},
		{
			name: 'Handle Message',
			value: 'handleMessage',
			action: 'Handle a client message',
			description: 'Step the conversation with each message.received item and send the replies',
		},
		{
			name: 'Move Conversations',
			value: 'moveConversations',
			action: 'Move conversations to another version',
			description:
				'Move the live conversations of one scenario version to another, state by state, each once; preview first where each would land',
		},
		{
			name: 'Release to Bot',
			value: 'release',
			action: 'Release a client to the bot',
			description: 'A person has finished with a handed-off client: the bot answers again',
		},
		{
			// Stored as `fireTimers` in saved workflows (see `operations` above); never rename it.
			name: 'Run Due Work',
			value: 'fireTimers',
			action: 'Run due work',
			description:
				'Apply messages whose execution stopped, finish unfinished replies and send the "after N minutes of silence" messages, for every conversation of this scenario whatever workflow handled it; run it from a Schedule Trigger',
		},
		{
			name: 'Test Conversation',
			value: 'testConversation',
			action: 'Test a conversation',
			description:
				'Play client messages through the scenario without sending anything: the transcript, states, variables and workflow calls',
		},
	],
};

/** The parameters of the operations, shown for the operation that needs them. */
export const operationFields: INodeProperties[] = [
	...Object.values(operations).flatMap((operation) => operation.description),
	workflowsProperty,
];
