import { WEBHOOK_CREDENTIAL_ID, type Workflow } from '../scripts/lib/demo-setup';
import { workNode } from '../test/helpers/delivery-burst';

/**
 * The three workflows the acknowledgement bench compares, each doing the same work per delivery
 * (posting its id to the bench's sink): the Own Port Trigger, the Messaging Bot Trigger on n8n's
 * webhook URL (Batch Deliveries), and n8n's own Webhook node answering on receipt.
 */
export function ackWorkflows(sinkUrl: string, ownPort: number): Workflow[] {
	const work = (id: string) => workNode(id, sinkUrl);
	const connections = { main: [[{ node: 'Do the work', type: 'main', index: 0 }]] };
	return [
		{
			id: 'benchTrigger0001',
			name: 'Bench: Messaging Bot Trigger',
			nodes: [
				{
					id: 'a1',
					name: 'Trigger',
					type: 'n8n-nodes-messaging-bot.messagingBotTrigger',
					typeVersion: 2,
					position: [0, 0],
					webhookId: 'bench-trigger',
					parameters: { events: ['*'], executions: 'batch', options: {} },
					credentials: {
						messagingBotWebhookApi: { id: WEBHOOK_CREDENTIAL_ID, name: 'Messaging Bot Webhook' },
					},
				},
				work('a2'),
			],
			connections: { Trigger: connections },
			settings: {},
			active: false,
		},
		{
			id: 'benchPortTrig001',
			name: 'Bench: Messaging Bot Trigger (Own Port)',
			nodes: [
				{
					id: 'c1',
					name: 'Trigger',
					type: 'n8n-nodes-messaging-bot.messagingBotPortTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: { port: ownPort, host: '127.0.0.1', events: ['*'], options: {} },
					credentials: {
						messagingBotWebhookApi: { id: WEBHOOK_CREDENTIAL_ID, name: 'Messaging Bot Webhook' },
					},
				},
				work('c2'),
			],
			connections: { Trigger: connections },
			settings: {},
			active: false,
		},
		{
			id: 'benchWebhook0001',
			name: 'Bench: n8n Webhook',
			nodes: [
				{
					id: 'b1',
					name: 'Webhook',
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					position: [0, 0],
					webhookId: 'bench-plain',
					parameters: {
						httpMethod: 'POST',
						path: 'bench-plain',
						responseMode: 'onReceived',
						options: {},
					},
				},
				work('b2'),
			],
			connections: { Webhook: connections },
			settings: {},
			active: false,
		},
	] as unknown as Workflow[];
}
