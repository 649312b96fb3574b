import { admin, apiCredential, useEmulator } from '../helpers/emulator';
import { WebhookHost } from '../helpers/webhook-host';
import {
	delivery,
	message,
	OLD_SECRET,
	post,
	SECRET,
	useTriggerWorkflows,
} from './trigger-fixture';

const triggerWorkflow = useTriggerWorkflows();

describe('Messaging Bot Trigger: filters, test events, no secret', () => {
	it('acknowledges events it does not listen to without starting', async () => {
		const host = await new WebhookHost(triggerWorkflow({ events: ['order.created'] }), {
			messagingBotWebhookApi: { secret: SECRET },
		}).start();
		const r = await post(host, delivery('message.received', message('msg_filtered')));
		expect(r).toEqual({
			status: 200,
			body: {
				received: true,
				started: false,
				reason: 'event not selected',
				delivery_id: expect.any(String),
			},
		});
		expect((await post(host, delivery('order.created', { client_id: 'cl_ada' }))).status).toBe(200);
		await host.stop();
		expect(host.executions.map((e) => e.items[0].event)).toEqual(['order.created']);
	});

	it('recognises the test event: acknowledged and ignored, also while listening, unless asked', async () => {
		const test = () => delivery('webhook.test', { subscription_id: 'wh_1', message: 'saved' });
		// Listening in the editor: the test event must not end listening before the real event.
		const listening = await new WebhookHost(
			triggerWorkflow(),
			{ messagingBotWebhookApi: { secret: SECRET } },
			'manual',
		).start();
		expect((await post(listening, test())).body).toMatchObject({
			started: false,
			reason: 'test event',
		});
		await post(listening, delivery('order.created', { client_id: 'cl_ada' }));
		await listening.stop();
		expect(listening.executions.map((e) => e.items[0].event)).toEqual(['order.created']);
		const shown = await new WebhookHost(
			triggerWorkflow({ options: { passTestEvents: true } }),
			{ messagingBotWebhookApi: { secret: SECRET } },
			'manual',
		).start();
		await post(shown, test());
		await shown.stop();
		expect(shown.executions[0].items[0]).toMatchObject({ event: 'webhook.test', is_test: true });
		const production = await new WebhookHost(triggerWorkflow(), {
			messagingBotWebhookApi: { secret: SECRET },
		}).start();
		expect((await post(production, test())).body.reason).toBe('test event');
		await production.stop();
		expect(production.executions).toHaveLength(0);
		const opted = await new WebhookHost(triggerWorkflow({ options: { passTestEvents: true } }), {
			messagingBotWebhookApi: { secret: SECRET },
		}).start();
		await post(opted, test());
		await opted.stop();
		expect(opted.executions).toHaveLength(1);
	});

	it('shows a wrong signature as an error while listening in the editor, and starts nothing', async () => {
		const listening = await new WebhookHost(
			triggerWorkflow(),
			{ messagingBotWebhookApi: { secret: SECRET } },
			'manual',
		).start();
		const r = await post(
			listening,
			delivery('order.created', { client_id: 'cl_ada' }, undefined, OLD_SECRET),
		);
		await listening.stop();
		// Thrown from the webhook: n8n records it as the trigger's error, which the editor shows.
		expect(r.status).toBe(500);
		expect(r.body.message).toBe(
			'A delivery was refused: the request has a signature that does not match',
		);
		expect(listening.executions).toHaveLength(0);
	});

	it('accepts unsigned events when no secret is set, and says so on the item', async () => {
		const host = await new WebhookHost(triggerWorkflow({}, false, false), {}).start();
		const d = delivery('client.created', { client_id: 'cl_x' });
		delete (d.headers as Record<string, string>)['X-Service-Signature'];
		expect((await post(host, d)).status).toBe(200);
		await host.stop();
		expect(host.executions[0].items[0]).toMatchObject({ signature_verified: false });
	});

	it('adds headers and the raw body when asked', async () => {
		const host = await new WebhookHost(
			triggerWorkflow({ options: { includeHeaders: true, includeRawBody: true } }),
			{ messagingBotWebhookApi: { secret: SECRET } },
		).start();
		const d = delivery('order.created', { client_id: 'cl_ada' });
		await post(host, d);
		await host.stop();
		const item = host.executions[0].items[0];
		expect(item.raw_body).toBe(d.body);
		expect((item.headers as Record<string, string>)['x-service-delivery-id']).toBe(
			d.headers['X-Service-Delivery-ID'],
		);
	});
});

describe('Messaging Bot Trigger with the emulator: order.created → tag the client', () => {
	const emulator = useEmulator();

	it('tags the client of a signed order.created delivery, once', async () => {
		const e = emulator();
		const host = await new WebhookHost(triggerWorkflow({ events: ['order.created'] }, true), {
			messagingBotWebhookApi: { secret: SECRET },
			messagingBotApi: apiCredential(e),
		}).start();
		const saved = await admin<{ test_delivery: { state: string } }>(e, 'POST', '/subscriptions', {
			url: host.url,
			secret: SECRET,
			events: ['order.created'],
		});
		expect(saved.body.data.test_delivery.state).toBe('delivered');
		await admin(e, 'POST', '/events', {
			event: 'order.created',
			data: { client_id: 'cl_grace', order_id: 'ord_77', total: 20 },
		});
		await admin(e, 'POST', '/settle');
		await host.idle();
		const { body } = await admin<{ tags: string[] }>(e, 'GET', '/clients/cl_grace');
		expect(body.data.tags).toContain('customer');
		expect(host.executions).toHaveLength(1);
		expect(host.executions[0].run.data.resultData.error).toBeUndefined();
		await host.stop();
	});
});
