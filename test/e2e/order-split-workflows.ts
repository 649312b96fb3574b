import {
	API_CREDENTIAL_ID,
	WEBHOOK_CREDENTIAL_ID,
	type Workflow,
} from '../../scripts/lib/demo-setup';
import { SCENARIO_JSON } from './order-split';

/**
 * The split order-status bot in n8n, and a report a user would build on it: n8n's Webhook node
 * answers with what the Scenario node's Get Analytics gives (every item).
 */

const apiCredential = { messagingBotApi: { id: API_CREDENTIAL_ID, name: 'Messaging Bot API' } };

/** Trigger → Scenario; a Schedule Trigger every 2 s → Run Due Work. */
export function botWorkflow(): Workflow {
	const scenario = { operation: 'handleMessage', scenario: SCENARIO_JSON, options: {} };
	return {
		id: 'mbOrderSplitBot01',
		name: 'Order status with a split',
		// As the order-status example: only failed executions are kept.
		settings: { executionOrder: 'v1', saveDataSuccessExecution: 'none' },
		nodes: [
			{
				id: 'd0000000-0000-4000-8000-000000000001',
				name: 'Client Writes',
				type: 'n8n-nodes-messaging-bot.messagingBotTrigger',
				typeVersion: 1,
				position: [0, 0],
				webhookId: 'messaging-bot-order-split',
				parameters: { events: ['message.received'], options: {} },
				credentials: {
					messagingBotWebhookApi: { id: WEBHOOK_CREDENTIAL_ID, name: 'Messaging Bot Webhook' },
				},
			},
			{
				id: 'd0000000-0000-4000-8000-000000000002',
				name: 'Bot',
				type: 'n8n-nodes-messaging-bot.messagingBotScenario',
				typeVersion: 1,
				position: [260, 0],
				parameters: scenario,
				credentials: apiCredential,
			},
			{
				id: 'd0000000-0000-4000-8000-000000000003',
				name: 'Every 2 Seconds',
				type: 'n8n-nodes-base.scheduleTrigger',
				typeVersion: 1.2,
				position: [0, 260],
				parameters: { rule: { interval: [{ field: 'seconds', secondsInterval: 2 }] } },
			},
			{
				id: 'd0000000-0000-4000-8000-000000000004',
				name: 'Run Due Work',
				type: 'n8n-nodes-messaging-bot.messagingBotScenario',
				typeVersion: 1,
				position: [260, 260],
				parameters: { ...scenario, operation: 'fireTimers' },
				credentials: apiCredential,
			},
		],
		connections: {
			'Client Writes': { main: [[{ node: 'Bot', type: 'main', index: 0 }]] },
			'Every 2 Seconds': { main: [[{ node: 'Run Due Work', type: 'main', index: 0 }]] },
		},
	} as unknown as Workflow;
}

const REPORT_PATH = 'mb-order-split-report';

/** Webhook → Get Analytics (Quiet Time `quietHours`), answering with every item. */
export function reportWorkflow(quietHours: number): Workflow {
	return {
		id: 'mbOrderSplitRep01',
		name: 'Order status funnel report',
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: 'd0000000-0000-4000-8000-000000000011',
				name: 'Report Asked',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: 'd0000000-0000-4000-8000-000000000111',
				parameters: {
					httpMethod: 'GET',
					path: REPORT_PATH,
					responseMode: 'lastNode',
					responseData: 'allEntries',
					options: {},
				},
			},
			{
				id: 'd0000000-0000-4000-8000-000000000012',
				name: 'Funnel',
				type: 'n8n-nodes-messaging-bot.messagingBotScenario',
				typeVersion: 1,
				position: [260, 0],
				parameters: {
					operation: 'getAnalytics',
					scenario: SCENARIO_JSON,
					analyticsQuietHours: quietHours,
				},
				credentials: apiCredential,
			},
		],
		connections: { 'Report Asked': { main: [[{ node: 'Funnel', type: 'main', index: 0 }]] } },
	} as unknown as Workflow;
}

export type AnalyticsItem = Record<string, unknown> & { kind: string; state: string };

/** Runs the report in n8n and returns its items, with when it was asked and answered. */
export async function readReport(
	n8nUrl: string,
): Promise<{ items: AnalyticsItem[]; from: number; to: number }> {
	const from = Date.now();
	const res = await fetch(`${n8nUrl}/webhook/${REPORT_PATH}`);
	const text = await res.text();
	const to = Date.now();
	if (!res.ok) throw new Error(`the report failed: ${res.status} ${text}`);
	return { items: JSON.parse(text) as AnalyticsItem[], from, to };
}
