import { WEBHOOK_CREDENTIAL_ID, type Workflow } from '../../../scripts/lib/demo-setup';
import { workNode } from '../../helpers/delivery-burst';

export const HEADER_AUTH = {
	id: 'hostileHeaderAuth1',
	name: 'Header Auth',
	header: 'X-Auth',
	value: 'steady-secret',
};

/**
 * The three doors the hostile suite attacks, each doing the same work per delivery (posting its id
 * to the sink): the Messaging Bot Trigger on n8n's URL, the Own Port Trigger with its default
 * limits, and n8n's own Webhook node with Header Auth (the baseline n8n gives its own node).
 */
export function doorWorkflows(sinkUrl: string, ownPort: number): Workflow[] {
	const connections = { main: [[{ node: 'Do the work', type: 'main', index: 0 }]] };
	const webhookCredential = {
		messagingBotWebhookApi: { id: WEBHOOK_CREDENTIAL_ID, name: 'Messaging Bot Webhook' },
	};
	const workflow = (id: string, name: string, trigger: object) => ({
		id,
		name,
		nodes: [{ ...trigger, name: 'Trigger', position: [0, 0] }, workNode(`${id}-work`, sinkUrl)],
		connections: { Trigger: connections },
		settings: { executionOrder: 'v1' },
		active: false,
	});
	return [
		workflow('hostileTrigger01', 'Hostile: Messaging Bot Trigger', {
			id: 'h1',
			type: 'n8n-nodes-messaging-bot.messagingBotTrigger',
			typeVersion: 2,
			webhookId: 'hostile-trigger',
			parameters: { events: ['*'], options: {} },
			credentials: webhookCredential,
		}),
		workflow('hostilePortTrig1', 'Hostile: Own Port Trigger', {
			id: 'h2',
			type: 'n8n-nodes-messaging-bot.messagingBotPortTrigger',
			typeVersion: 1,
			parameters: { port: ownPort, host: '127.0.0.1', events: ['*'], options: {} },
			credentials: webhookCredential,
		}),
		workflow('hostileWebhook01', 'Hostile: n8n Webhook with Header Auth', {
			id: 'h3',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			webhookId: 'hostile-plain',
			parameters: {
				httpMethod: 'POST',
				path: 'hostile-plain',
				responseMode: 'onReceived',
				authentication: 'headerAuth',
				options: {},
			},
			credentials: { httpHeaderAuth: { id: HEADER_AUTH.id, name: HEADER_AUTH.name } },
		}),
	] as unknown as Workflow[];
}

export const headerAuthCredential = {
	id: HEADER_AUTH.id,
	name: HEADER_AUTH.name,
	type: 'httpHeaderAuth',
	data: { name: HEADER_AUTH.header, value: HEADER_AUTH.value },
};
