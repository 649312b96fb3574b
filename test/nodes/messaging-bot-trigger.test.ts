/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: temporary files, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { INode } from 'n8n-workflow';

import { closeSharedSqliteStores } from '../../runtime/stores/sqlite';
import { referenceSignature, signedDelivery, type SignedDelivery } from '../helpers/deliveries';
import { admin, apiCredential, useEmulator } from '../helpers/emulator';
import type { TestWorkflow } from '../helpers/n8n';
import { WebhookHost } from '../helpers/webhook-host';
import { byId, chain, messagingBotNode, triggerNode } from '../helpers/workflows';

const dir = mkdtempSync(path.join(tmpdir(), 'mb-trigger-'));
afterAll(async () => {
	await closeSharedSqliteStores();
	rmSync(dir, { recursive: true, force: true });
});

const SECRET = ['whsec', 'current'].join('_');
const OLD_SECRET = ['whsec', 'previous'].join('_');

let stateFile = 0;
function triggerWorkflow(
	parameters: INode['parameters'] = {},
	withTags = false,
	credential = true,
): TestWorkflow {
	const trigger = triggerNode(
		{
			events: ['*'],
			...parameters,
			options: {
				statePath: path.join(dir, `state${++stateFile}.sqlite`),
				...(parameters.options as object),
			},
		},
		{ name: 'Messaging Bot Trigger', ...(credential ? {} : { credentials: undefined }) },
	);
	const tagCustomer = messagingBotNode(
		{
			resource: 'client',
			operation: 'updateTags',
			clientId: byId('={{ $json.client_id }}'),
			add: ['customer'],
		},
		{ id: 'b', name: 'Tag Customer' },
	);
	return chain(withTags ? [trigger, tagCustomer] : [trigger]);
}

// Signed by the reference signer, independently of the code under test.
const delivery = (
	event: string,
	data: Record<string, unknown>,
	id = `dlv_${Math.random().toString(16).slice(2)}`,
	secret = SECRET,
): SignedDelivery => signedDelivery(secret, event, data, id);
const post = async (host: WebhookHost, d: SignedDelivery) => {
	const res = await fetch(host.url, { method: 'POST', headers: d.headers, body: d.body });
	return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const message = (id = 'msg_1') => ({
	message_id: id,
	client_id: 'cl_ada',
	bot_id: 'bot_shop',
	text: 'hi',
	channel: 'telegram',
	timestamp: new Date().toISOString(),
	metadata: { message_type: 'text', has_attachments: false },
});

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

describe('Messaging Bot Trigger: each event once', () => {
	it('runs one execution for 100 copies of a delivery, 10 of them at once', async () => {
		const host = await new WebhookHost(triggerWorkflow(), {
			messagingBotWebhookApi: { secret: SECRET },
		}).start();
		const d = delivery('order.created', { client_id: 'cl_ada', order_id: 'ord_1' }, 'dlv_same');
		const concurrent = await Promise.all(Array.from({ length: 10 }, () => post(host, d)));
		const sequential = [];
		for (let i = 0; i < 90; i++) sequential.push(await post(host, d));
		const all = [...concurrent, ...sequential];
		expect(all.every((r) => r.status === 200)).toBe(true);
		expect(all.filter((r) => r.body.started === true)).toHaveLength(1);
		expect(all.filter((r) => r.body.reason === 'already received')).toHaveLength(99);
		await host.stop();
		expect(host.executions).toHaveLength(1);
	});

	it('drops a second delivery of the same message_id', async () => {
		const host = await new WebhookHost(triggerWorkflow(), {
			messagingBotWebhookApi: { secret: SECRET },
		}).start();
		await post(host, delivery('message.received', message('msg_twice'), 'dlv_a'));
		await post(host, delivery('message.received', message('msg_twice'), 'dlv_b'));
		await host.stop();
		expect(host.executions).toHaveLength(1);
	});

	it('still drops a redelivery after n8n restarts', async () => {
		const workflow = triggerWorkflow();
		const first = await new WebhookHost(workflow, {
			messagingBotWebhookApi: { secret: SECRET },
		}).start();
		const d = delivery('order.completed', { client_id: 'cl_ada' }, 'dlv_restart');
		await post(first, d);
		await first.stop();
		await closeSharedSqliteStores(); // the process's connections go, the file stays
		const second = await new WebhookHost(workflow, {
			messagingBotWebhookApi: { secret: SECRET },
		}).start();
		expect((await post(second, d)).body.reason).toBe('already received');
		await second.stop();
		expect(first.executions.length + second.executions.length).toBe(1);
	});
});

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

describe('Messaging Bot Trigger: bursts', () => {
	const burst = async (executions: 'batch' | 'perDelivery') => {
		const host = await new WebhookHost(triggerWorkflow({ executions }), {
			messagingBotWebhookApi: { secret: SECRET },
		}).start();
		const deliveries = Array.from({ length: 40 }, (_, i) =>
			delivery('order.created', { client_id: 'cl_ada', order_id: `ord_${i}` }, `dlv_burst_${i}`),
		);
		const answers = await Promise.all(deliveries.map((d) => post(host, d)));
		await host.stop();
		const carried = host.executions.flatMap((e) => e.items.map((i) => String(i.order_id)));
		return { answers, carried, runs: host.executions.length };
	};

	it('carries every delivery of a burst in exactly one execution, never more executions than deliveries', async () => {
		const { answers, carried, runs } = await burst('batch');
		expect(answers.every((a) => a.status === 200 && a.body.started === true)).toBe(true);
		expect(carried.sort()).toEqual(Array.from({ length: 40 }, (_, i) => `ord_${i}`).sort());
		expect(runs).toBeLessThanOrEqual(40);
	});

	it('starts one execution per delivery when asked to', async () => {
		const { carried, runs } = await burst('perDelivery');
		expect(carried).toHaveLength(40);
		expect(runs).toBe(40);
	});
});
