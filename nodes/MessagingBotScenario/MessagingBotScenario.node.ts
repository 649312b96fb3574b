import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { conversationOperation } from './actions/conversation.operation';
import { engineFor } from './actions/engine';
import { fireTimers } from './actions/fireTimers.operation';
import { handleMessages } from './actions/handleMessage.operation';
import { messagingBotRedisPing, statePathOption, stateStoreProperty } from '../shared/stateStore';

/** The order-status example: a starting point users can edit in place. */
const EXAMPLE_SCENARIO =
	'{\n  "id": "order-status",\n  "version": 1,\n  "description": "Helps a client follow an order: asks for the email used at checkout and the order number; hands over to a person when stuck.",\n  "start": "welcome",\n  "fallback": "Sorry, I did not get \\"{{message.text}}\\". Type \\"order\\" to check an order, or \\"human\\" to talk to a person.",\n  "keywords": [\n    {\n      "match": {\n        "equals": [\n          "restart",\n          "menu"\n        ]\n      },\n      "target": "welcome"\n    },\n    {\n      "match": {\n        "equals": "stop"\n      },\n      "actions": [\n        {\n          "reply": "OK, I will stop here. Write again any time."\n        },\n        {\n          "end": true\n        }\n      ]\n    },\n    {\n      "match": {\n        "contains": [\n          "human",\n          "agent",\n          "person"\n        ]\n      },\n      "target": "human"\n    }\n  ],\n  "states": {\n    "welcome": {\n      "messages": [\n        "Hi {{client.first_name|there}}! I can tell you where your order is. Type \\"order\\" to start."\n      ],\n      "on": [\n        {\n          "match": {\n            "contains": [\n              "order",\n              "status",\n              "where",\n              "track"\n            ]\n          },\n          "target": "ask_email"\n        }\n      ]\n    },\n    "ask_email": {\n      "messages": [\n        "What email address did you use for the order?"\n      ],\n      "capture": {\n        "into": "email",\n        "check": "email",\n        "retry": "That does not look like an email address. Please type it like name@example.com.",\n        "retries": 2,\n        "giveUp": {\n          "say": "I could not read the email address.",\n          "target": "human"\n        },\n        "target": "ask_number"\n      }\n    },\n    "ask_number": {\n      "messages": [\n        "Thanks! And the order number? It is in the confirmation we sent to {{vars.email}}."\n      ],\n      "capture": {\n        "into": "order_number",\n        "check": {\n          "regex": "^\\\\d{4,8}$"\n        },\n        "retry": "Order numbers are 4 to 8 digits, like 1001.",\n        "retries": 2,\n        "giveUp": {\n          "target": "human"\n        },\n        "target": "status"\n      },\n      "after": {\n        "minutes": 30,\n        "send": "Still there? Send the order number whenever you have it."\n      }\n    },\n    "status": {\n      "messages": [\n        "Order {{vars.order_number}} has shipped. Tracking details are on their way to {{vars.email}}.",\n        "Anything else? Type \\"order\\" for another order, or \\"no\\" to finish."\n      ],\n      "on": [\n        {\n          "match": {\n            "contains": "order"\n          },\n          "target": "ask_number"\n        },\n        {\n          "match": {\n            "equals": [\n              "no",\n              "no thanks",\n              "thanks",\n              "thank you"\n            ]\n          },\n          "actions": [\n            {\n              "reply": "Happy to help, {{client.first_name|}}. Bye!"\n            },\n            {\n              "end": true\n            }\n          ]\n        }\n      ]\n    },\n    "human": {\n      "messages": [\n        "I am passing you to a colleague, who will answer here shortly."\n      ],\n      "actions": [\n        {\n          "addTags": [\n            "needs-human"\n          ]\n        },\n        {\n          "handoff": true\n        }\n      ],\n      "on": [\n        {\n          "match": {\n            "any": true\n          },\n          "actions": [\n            {\n              "removeTags": [\n                "needs-human"\n              ]\n            }\n          ],\n          "target": "welcome"\n        }\n      ]\n    }\n  }\n}';

export class MessagingBotScenario implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Messaging Bot Scenario',
		name: 'messagingBotScenario',
		icon: { light: 'file:messagingBotScenario.svg', dark: 'file:messagingBotScenario.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{ $parameter["operation"] }}',
		description:
			'Runs a bot scenario (a state machine written as JSON) on each message a client sends, and replies',
		defaults: { name: 'Messaging Bot Scenario' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main, NodeConnectionTypes.Main],
		outputNames: ['Handled', 'Needs a Human'],
		credentials: [
			{ name: 'messagingBotApi', required: true },
			{
				name: 'messagingBotRedisApi',
				required: true,
				testedBy: 'messagingBotRedisPing',
				displayOptions: { show: { stateStore: ['redis'] } },
			},
		],
		properties: [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				default: 'handleMessage',
				options: [
					{
						name: 'Handle Message',
						value: 'handleMessage',
						action: 'Handle a client message',
						description:
							'Step the conversation with each message.received item and send the replies',
					},
					{
						// The value stays `fireTimers`, so workflows built before the rename keep working.
						name: 'Run Due Work',
						value: 'fireTimers',
						action: 'Run due work',
						description:
							'Apply messages whose execution stopped, finish unfinished replies and send the "after N minutes of silence" messages; run it from a Schedule Trigger',
					},
					{
						name: 'Release to Bot',
						value: 'release',
						action: 'Release a client to the bot',
						description: 'A person has finished with a handed-off client: the bot answers again',
					},
					{
						name: 'Get Conversation',
						value: 'getConversation',
						action: 'Get a conversation',
						description: "The state, variables and last actions of a client's conversation",
					},
				],
			},
			{
				displayName: 'Scenario',
				name: 'scenario',
				type: 'json',
				typeOptions: { rows: 20 },
				default: EXAMPLE_SCENARIO,
				required: true,
				description:
					'The scenario as JSON. Every problem is listed with its path when the node runs. The format and its JSON Schema are in the package README.',
			},
			{
				displayName: 'Bot ID',
				name: 'botId',
				type: 'string',
				default: '={{ $json.bot_id }}',
				required: true,
				displayOptions: { show: { operation: ['release', 'getConversation'] } },
			},
			{
				displayName: 'Client ID',
				name: 'clientId',
				type: 'string',
				default: '={{ $json.client_id }}',
				required: true,
				displayOptions: { show: { operation: ['release', 'getConversation'] } },
			},
			stateStoreProperty('conversations and timers'),
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
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
						displayName: 'Other Scenarios',
						name: 'otherScenarios',
						type: 'json',
						default: '[]',
						description:
							'More scenarios (a JSON list) that this one can jump to with a "goto" action',
					},
					{
						displayName: 'Reorder Window (Seconds)',
						name: 'reorderWindowSeconds',
						type: 'number',
						default: 1,
						typeOptions: { minValue: 0, maxValue: 10, numberPrecision: 1 },
						description:
							'How long a message waits for one its client wrote earlier that is still on its way, so the bot answers in the order written. 0 answers in the order received; every second added delays each reply by as much.',
					},
					statePathOption('conversations and timers'),
				],
			},
		],
	};

	methods = { credentialTest: { messagingBotRedisPing } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const engine = await engineFor(this);
		const operation = this.getNodeParameter('operation', 0) as string;
		if (operation === 'fireTimers') return await fireTimers.call(this, engine);
		if (operation === 'release' || operation === 'getConversation') {
			return await conversationOperation.call(this, engine, operation);
		}
		return await handleMessages.call(this, engine);
	}
}
