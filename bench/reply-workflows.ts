import { API_CREDENTIAL_ID, WEBHOOK_CREDENTIAL_ID, type Workflow } from '../scripts/lib/demo-setup';

/**
 * The same trivial bot built three ways for the reply bench: every client message is answered
 * with one reply quoting it ("You said …"), after a greeting that starts the conversation.
 */
export const ECHO_SCENARIO = {
	id: 'bench-echo',
	version: 1,
	start: 'echo',
	states: {
		echo: {
			messages: ['Hello'],
			on: [{ match: { any: true }, actions: [{ reply: 'You said {{message.text}}' }] }],
		},
	},
};

const webhookCredential = {
	messagingBotWebhookApi: { id: WEBHOOK_CREDENTIAL_ID, name: 'Messaging Bot Webhook' },
};

function scenarioNode(id: string, scenarioOptions: Record<string, unknown>) {
	return {
		id,
		name: 'Scenario',
		type: 'n8n-nodes-messaging-bot.messagingBotScenario',
		typeVersion: 1,
		position: [260, 0],
		parameters: {
			operation: 'handleMessage',
			scenario: JSON.stringify(ECHO_SCENARIO),
			options: scenarioOptions,
		},
		credentials: { messagingBotApi: { id: API_CREDENTIAL_ID, name: 'Messaging Bot API' } },
	};
}

const toScenario = { main: [[{ node: 'Scenario', type: 'main', index: 0 }]] };

export const REPLY_PATHS = {
	trigger: 'bench-reply-trigger',
	handBuilt: 'bench-reply-hand',
};

/**
 * The Messaging Bot Trigger (n8n's webhook URL) → Scenario; the Own Port Trigger → Scenario; n8n's
 * Webhook node → HTTP Request posting the reply, as a user would build it by hand (no signature
 * check, no state, no order). `scenarioOptions` are the Scenario nodes' Options.
 */
export function replyWorkflows(
	ownPort: number,
	api: { baseUrl: string; apiKey: string },
	scenarioOptions: Record<string, unknown> = {},
): Workflow[] {
	return [
		{
			id: 'benchReplyTrig01',
			name: 'Bench reply: Messaging Bot Trigger → Scenario',
			nodes: [
				{
					id: 'r1',
					name: 'Trigger',
					type: 'n8n-nodes-messaging-bot.messagingBotTrigger',
					typeVersion: 2,
					position: [0, 0],
					webhookId: REPLY_PATHS.trigger,
					parameters: { events: ['message.received'], options: {} },
					credentials: webhookCredential,
				},
				scenarioNode('r2', scenarioOptions),
			],
			connections: { Trigger: toScenario },
			settings: {},
			active: false,
		},
		{
			id: 'benchReplyPort01',
			name: 'Bench reply: Own Port Trigger → Scenario',
			nodes: [
				{
					id: 'p1',
					name: 'Trigger',
					type: 'n8n-nodes-messaging-bot.messagingBotPortTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {
						port: ownPort,
						host: '127.0.0.1',
						events: ['message.received'],
						options: {},
					},
					credentials: webhookCredential,
				},
				scenarioNode('p2', scenarioOptions),
			],
			connections: { Trigger: toScenario },
			settings: {},
			active: false,
		},
		{
			id: 'benchReplyHand01',
			name: 'Bench reply: Webhook → HTTP Request (by hand)',
			nodes: [
				{
					id: 'h1',
					name: 'Webhook',
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					position: [0, 0],
					webhookId: REPLY_PATHS.handBuilt,
					parameters: {
						httpMethod: 'POST',
						path: REPLY_PATHS.handBuilt,
						responseMode: 'onReceived',
						options: {},
					},
				},
				{
					id: 'h2',
					name: 'Reply',
					type: 'n8n-nodes-base.httpRequest',
					typeVersion: 4.2,
					position: [260, 0],
					parameters: {
						method: 'POST',
						url: `=${api.baseUrl}/bots/{{ $json.body.data.bot_id }}/messages`,
						sendHeaders: true,
						headerParameters: {
							parameters: [{ name: 'Authorization', value: `Bearer ${api.apiKey}` }],
						},
						sendBody: true,
						specifyBody: 'json',
						jsonBody:
							'={{ JSON.stringify({ client_id: $json.body.data.client_id, text: "You said " + $json.body.data.text }) }}',
						options: {},
					},
				},
			],
			connections: { Webhook: { main: [[{ node: 'Reply', type: 'main', index: 0 }]] } },
			settings: {},
			active: false,
		},
	] as unknown as Workflow[];
}
