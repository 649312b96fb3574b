/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: temporary files, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { INode } from 'n8n-workflow';

import { closeSharedSqliteStores } from '../../runtime/stores/sqlite';
import { freePort } from '../../scripts/lib/n8n-process';
import { PortTriggerHost } from '../helpers/port-trigger-host';
import { signedDelivery } from '../helpers/deliveries';
import { WebhookHost } from '../helpers/webhook-host';

const dir = mkdtempSync(path.join(tmpdir(), 'mb-bots-'));
afterAll(async () => {
	await closeSharedSqliteStores();
	rmSync(dir, { recursive: true, force: true });
});

const SECRET = ['whsec', 'bots'].join('_');
const credentials = { messagingBotWebhookApi: { secret: SECRET } };
let seq = 0;

const signed = (event: string, data: Record<string, unknown>) =>
	signedDelivery(SECRET, event, data, `dlv_bots_${++seq}`);
const hi = (bot: string) =>
	signed('message.received', {
		message_id: `msg_${bot}_${++seq}`,
		client_id: 'cl_ada',
		bot_id: bot,
		text: 'hi',
		timestamp: new Date().toISOString(),
	});
const order = () => signed('order.created', { client_id: 'cl_ada', order_id: `ord_${++seq}` });

async function send(url: string, request: ReturnType<typeof signed>) {
	const res = await fetch(url, { method: 'POST', ...request });
	return (await res.json()) as Record<string, unknown>;
}

function trigger(type: string, parameters: INode['parameters']): INode {
	return {
		id: 't',
		name: 'Trigger',
		type: `n8n-nodes-messaging-bot.${type}`,
		typeVersion: 1,
		position: [0, 0],
		webhookId: 'hook',
		parameters: {
			events: ['*'],
			...parameters,
			options: { statePath: path.join(dir, `state${++seq}.sqlite`) },
		},
		credentials: { messagingBotWebhookApi: { id: 'w', name: 'Webhook' } },
	};
}

describe('Bots filter: a delivery for another bot is acknowledged and starts nothing', () => {
	it.each([
		['picked from the list', { botFilter: 'list', bots: ['bot_shop'] }],
		['given by ID', { botFilter: 'ids', botIds: ' bot_shop ,bot_other' }],
	])('Messaging Bot Trigger, bots %s', async (_how, parameters) => {
		const host = await new WebhookHost(
			{ nodes: [trigger('messagingBotTrigger', parameters)], connections: {} },
			credentials,
		).start();
		expect(await send(host.url, hi('bot_support'))).toEqual({
			received: true,
			started: false,
			reason: 'bot not selected',
			delivery_id: expect.any(String),
		});
		expect(await send(host.url, hi('bot_shop'))).toMatchObject({ started: true });
		// Orders belong to no bot: they start the workflow whatever the filter.
		expect(await send(host.url, order())).toMatchObject({ started: true });
		await host.stop();
		expect(host.executions.map((e) => [e.items[0].event, e.items[0].bot_id])).toEqual([
			['message.received', 'bot_shop'],
			['order.created', undefined],
		]);
	});

	it('Messaging Bot Trigger, all bots: every bot starts it', async () => {
		const host = await new WebhookHost(
			{ nodes: [trigger('messagingBotTrigger', { botFilter: 'all' })], connections: {} },
			credentials,
		).start();
		await send(host.url, hi('bot_support'));
		await send(host.url, hi('bot_shop'));
		await host.stop();
		expect(host.executions.map((e) => e.items[0].bot_id).sort()).toEqual([
			'bot_shop',
			'bot_support',
		]);
	});

	it('Messaging Bot Own Port Trigger, bots given by ID', async () => {
		const port = await freePort();
		const node = trigger('messagingBotPortTrigger', {
			botFilter: 'ids',
			botIds: 'bot_support',
			port,
			host: '127.0.0.1',
		});
		const host = await new PortTriggerHost(node, credentials, 'manual').start();
		const url = `http://127.0.0.1:${port}/messaging-bot`;
		try {
			expect(await send(url, hi('bot_shop'))).toMatchObject({
				started: false,
				reason: 'bot not selected',
			});
			expect(await send(url, hi('bot_support'))).toMatchObject({ started: true });
		} finally {
			await host.stop();
		}
		expect(host.emitted.map((items) => items[0].bot_id)).toEqual(['bot_support']);
	});
});

describe('Messaging Bot Own Port Trigger while listening in the editor', () => {
	it('acknowledges the test event without emitting, and shows a wrong signature as an error', async () => {
		const port = await freePort();
		const node = trigger('messagingBotPortTrigger', { port, host: '127.0.0.1' });
		const host = await new PortTriggerHost(node, credentials, 'manual').start();
		const url = `http://127.0.0.1:${port}/messaging-bot`;
		try {
			expect(await send(url, signed('webhook.test', { subscription_id: 'wh_1' }))).toMatchObject({
				started: false,
				reason: 'test event',
			});
			const forged = signed('order.created', { client_id: 'cl_ada' });
			forged.headers['X-Service-Signature'] = `sha256=${'0'.repeat(64)}`;
			const res = await fetch(url, { method: 'POST', ...forged });
			expect(res.status).toBe(401);
		} finally {
			await host.stop();
		}
		expect(host.emitted).toHaveLength(0);
		expect(host.errors.map((e) => e.message)).toEqual([
			'A delivery was refused: the request has a signature that does not match',
		]);
	});
});
