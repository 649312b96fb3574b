import { referenceSignature, type SignedDelivery } from '../helpers/deliveries';
import { sleep } from 'n8n-workflow';

import { SECRETS_REREAD_MS } from '../../runtime/webhooks';
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

describe('Messaging Bot Trigger: signatures', () => {
	let host: WebhookHost;
	beforeAll(async () => {
		host = await new WebhookHost(triggerWorkflow(), {
			messagingBotWebhookApi: { secret: SECRET, previousSecret: '' },
		}).start();
	});
	afterAll(async () => host.stop());

	it('starts one execution for a valid delivery, with the event data and delivery fields', async () => {
		const written = '2026-11-22T09:00:00.000Z';
		const d = delivery(
			'message.received',
			{ ...message('msg_valid'), timestamp: written },
			'dlv_valid',
		);
		expect(await post(host, d)).toEqual({
			status: 200,
			body: { received: true, started: true, delivery_id: 'dlv_valid' },
		});
		await host.idle();
		expect(host.executions).toHaveLength(1);
		expect(host.executions[0].items[0]).toMatchObject({
			message_id: 'msg_valid',
			client_id: 'cl_ada',
			text: 'hi',
			event: 'message.received',
			webhook_id: 'wh_test',
			delivery_id: 'dlv_valid',
			// The message's own time, as the service sent it; the delivery's beside it.
			timestamp: written,
			delivered_at: JSON.parse(d.body).timestamp,
			is_test: false,
			signature_verified: true,
		});
	});

	const forged: Array<[string, (d: SignedDelivery) => SignedDelivery]> = [
		['a tampered body', (d) => ({ ...d, body: d.body.replace('"hi"', '"hI"') })],
		[
			'a wrong secret',
			(d) => ({
				...d,
				headers: {
					...d.headers,
					'X-Service-Signature': referenceSignature('not_the_secret', d.body),
				},
			}),
		],
		[
			'no signature header',
			(d) => {
				const headers = { ...d.headers };
				delete (headers as Record<string, string>)['X-Service-Signature'];
				return { ...d, headers };
			},
		],
		[
			'a wrong prefix',
			(d) => ({
				...d,
				headers: {
					...d.headers,
					'X-Service-Signature': d.headers['X-Service-Signature'].replace('sha256=', 'sha1='),
				},
			}),
		],
		[
			'a truncated signature',
			(d) => ({
				...d,
				headers: {
					...d.headers,
					'X-Service-Signature': d.headers['X-Service-Signature'].slice(0, -2),
				},
			}),
		],
		[
			'a non-hex signature',
			(d) => ({
				...d,
				headers: { ...d.headers, 'X-Service-Signature': `sha256=${'z'.repeat(64)}` },
			}),
		],
		[
			'the bare digest',
			(d) => ({
				...d,
				headers: { ...d.headers, 'X-Service-Signature': d.headers['X-Service-Signature'].slice(7) },
			}),
		],
	];
	it.each(forged)('answers %s with 401 and starts nothing', async (_name, forge) => {
		const before = host.executions.length;
		const r = await post(
			host,
			forge(delivery('message.received', message(`msg_${Math.random()}`))),
		);
		expect(r.status).toBe(401);
		expect(String(r.body.message)).toMatch(/^Rejected: the request has/);
		await host.idle();
		expect(host.executions).toHaveLength(before);
	});

	it('accepts the previous secret while rotating, and the new one', async () => {
		await host.stop();
		host = await new WebhookHost(triggerWorkflow(), {
			messagingBotWebhookApi: { secret: SECRET, previousSecret: OLD_SECRET },
		}).start();
		// The forged deliveries above made the trigger read the credential again just now; a changed
		// credential is read again at most every SECRETS_REREAD_MS, so the rotation applies after it.
		await sleep(SECRETS_REREAD_MS + 100);
		expect(
			(await post(host, delivery('order.created', { client_id: 'cl_ada' }, undefined, OLD_SECRET)))
				.status,
		).toBe(200);
		expect(
			(await post(host, delivery('order.created', { client_id: 'cl_ada' }, undefined, SECRET)))
				.status,
		).toBe(200);
		expect(
			(
				await post(
					host,
					delivery('order.created', { client_id: 'cl_ada' }, undefined, 'whsec_other'),
				)
			).status,
		).toBe(401);
		await host.idle();
		expect(host.executions).toHaveLength(2);
	});

	it('answers a malformed envelope with 400 and starts nothing', async () => {
		const cases = [
			'{"event":"message.received"',
			JSON.stringify({
				event: 'nope.event',
				data: {},
				webhook_id: 'w',
				timestamp: '2026-01-01T00:00:00Z',
			}),
			JSON.stringify({
				event: 'message.received',
				data: { text: 'x' },
				webhook_id: 'w',
				timestamp: '2026-01-01T00:00:00Z',
			}),
		];
		const before = host.executions.length;
		for (const body of cases) {
			const r = await post(host, {
				body,
				headers: {
					'Content-Type': 'application/json',
					'X-Service-Delivery-ID': 'dlv_bad',
					'X-Service-Signature': referenceSignature(SECRET, body),
				},
			});
			expect(r.status).toBe(400);
		}
		await host.idle();
		expect(host.executions).toHaveLength(before);
	});
});
