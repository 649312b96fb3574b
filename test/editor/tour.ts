import { API_CREDENTIAL_ID, WEBHOOK_CREDENTIAL_ID } from '../../scripts/lib/demo-setup';

export const TOUR_ID = 'mbEditorTour0001';

const api = { messagingBotApi: { id: API_CREDENTIAL_ID, name: 'Messaging Bot API' } };
const webhook = {
	messagingBotWebhookApi: { id: WEBHOOK_CREDENTIAL_ID, name: 'Messaging Bot Webhook' },
};

/**
 * One of each node of the package, as a user would place them, for the editor test: the pickers
 * of Send Message left empty (the test picks from the lists), the Scenario node reading a
 * conversation and drawing a scenario, both triggers on the demo's webhook credential.
 */
export function tourWorkflow(ownPort: number) {
	const node = (
		name: string,
		type: string,
		position: [number, number],
		parameters: Record<string, unknown>,
		extra: Record<string, unknown> = {},
	) => ({
		id: `${TOUR_ID}-${name.replace(/\W/g, '')}`,
		name,
		type,
		typeVersion: 1,
		position,
		parameters,
		...extra,
	});
	return {
		id: TOUR_ID,
		name: 'Editor tour: one of each node',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			node('Start', 'n8n-nodes-base.manualTrigger', [0, 0], {}),
			node(
				'Send Message',
				'n8n-nodes-messaging-bot.messagingBot',
				[260, -120],
				{
					resource: 'bot',
					operation: 'sendMessage',
					botId: { __rl: true, mode: 'list', value: '' },
					clientId: { __rl: true, mode: 'list', value: '' },
					text: 'Hello from the editor',
				},
				{ credentials: api },
			),
			node(
				'Read Conversation',
				'n8n-nodes-messaging-bot.messagingBotScenario',
				[260, 120],
				{ operation: 'getConversation', botId: 'bot_shop', clientId: 'cl_ada' },
				{ credentials: api },
			),
			// No credential: a designer without an account tries a scenario.
			node('Try a Scenario', 'n8n-nodes-messaging-bot.messagingBotScenario', [260, 360], {
				operation: 'testConversation',
				testMessages: 'hi\n4',
			}),
			// The default scenario (the order-status example) drawn.
			node('Draw the Scenario', 'n8n-nodes-messaging-bot.messagingBotScenario', [520, 360], {
				operation: 'getDiagram',
			}),
			// The funnel of the demo's order-status bot (same store, same scenario).
			node('Read the Funnel', 'n8n-nodes-messaging-bot.messagingBotScenario', [520, 120], {
				operation: 'getAnalytics',
			}),
			node(
				'Client Writes',
				'n8n-nodes-messaging-bot.messagingBotTrigger',
				[0, 360],
				{ events: ['message.received'], options: {} },
				{ credentials: webhook, webhookId: 'messaging-bot-editor-tour' },
			),
			node(
				'Burst Receiver',
				'n8n-nodes-messaging-bot.messagingBotPortTrigger',
				[0, 600],
				{ port: ownPort, host: '127.0.0.1', events: ['*'], options: {} },
				{ credentials: webhook },
			),
		],
		connections: {
			Start: {
				main: [
					[
						{ node: 'Send Message', type: 'main', index: 0 },
						{ node: 'Read Conversation', type: 'main', index: 0 },
						{ node: 'Try a Scenario', type: 'main', index: 0 },
						{ node: 'Draw the Scenario', type: 'main', index: 0 },
						{ node: 'Read the Funnel', type: 'main', index: 0 },
					],
				],
			},
		},
	};
}
