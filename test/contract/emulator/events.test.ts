import type { RunningEmulator } from '../../emulator';
import { signatureValid } from '../../helpers/deliveries';
import { admin, call, useEmulator, type Reply } from '../../helpers/emulator';
import { Receiver } from '../../helpers/receiver';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
const SECRET = 'whsec_events-contract';

type Got = { event: string; data: Record<string, unknown>; deliveryId: string };
type Client = { id: string; tags: string[]; [field: string]: unknown };
type Order = { order_id: string; client_id: string; status: string; [field: string]: unknown };
type Emitted = { event: string; data: Record<string, unknown>; delivery_ids: string[] };

// docs/service-assumptions.md: A32 (which operation emits which event), A33 (data of each event),
// A30 (signature on every delivery), A25 (order fields), A14 (bot.started on activation), A6 (bot switched off).
describe('emulator events: the documented mapping reaches a subscribed receiver', () => {
	const emulator = useEmulator({ deliveryTimeoutMs: 1_000 });
	let receiver: Receiver;
	let subscriptionId: string;

	beforeAll(async () => {
		receiver = await new Receiver().start();
	});
	afterAll(async () => {
		await receiver.stop();
	});
	beforeEach(async () => {
		const e = emulator();
		await admin(e, 'POST', '/reset');
		const saved = await admin<{ subscription: { id: string } }>(e, 'POST', '/subscriptions', {
			url: receiver.url,
			secret: SECRET,
			events: ['*'],
		});
		expect(saved.status).toBe(201);
		subscriptionId = saved.body.data.subscription.id;
	});

	/** Runs one action and returns what the receiver got for it, each delivery checked and signed. */
	async function capture<T>(
		action: (e: RunningEmulator) => Promise<T>,
	): Promise<{ result: T; events: Got[] }> {
		const e = emulator();
		receiver.received.length = 0;
		const result = await action(e);
		await admin(e, 'POST', '/settle');
		const events = receiver.received.map((r) => {
			expect(signatureValid(SECRET, r)).toBe(true);
			const body = JSON.parse(r.raw.toString('utf8')) as Record<string, unknown>;
			expect(Object.keys(body).sort()).toEqual(['data', 'event', 'timestamp', 'webhook_id']);
			expect(r.headers['x-service-event']).toBe(body.event);
			expect(body.webhook_id).toBe(subscriptionId);
			expect(body.timestamp).toMatch(ISO_UTC);
			return {
				event: body.event as string,
				data: body.data as Record<string, unknown>,
				deliveryId: String(r.headers['x-service-delivery-id']),
			};
		});
		return { result, events };
	}

	const emit = (e: RunningEmulator, event: string, data?: Record<string, unknown>) =>
		admin<Emitted>(e, 'POST', '/events', data === undefined ? { event } : { event, data });

	describe('from the public API', () => {
		it('POST /clients of a new client emits client.created with the record; an existing one emits nothing', async () => {
			const created = await capture((e) =>
				call<Client>(e, 'POST', '/clients', {
					body: { email: 'new.person@example.com', first_name: 'New', tags: ['trial'] },
				}),
			);
			expect(created.result.status).toBe(201);
			expect(created.events).toHaveLength(1);
			expect(created.events[0]).toMatchObject({
				event: 'client.created',
				data: { client_id: created.result.body.data.id, client: created.result.body.data },
			});

			for (const body of [
				{ email: 'NEW.person@example.com' },
				{ email: 'ada@example.com', first_name: 'Someone else' },
				{ phone: '+12025550123' },
			]) {
				const existing = await capture((e) => call<Client>(e, 'POST', '/clients', { body }));
				expect(existing.result.status).toBe(200);
				expect(existing.events).toEqual([]);
			}
		});

		it('a refused client creation emits nothing', async () => {
			const refused = await capture((e) =>
				call(e, 'POST', '/clients', { body: { first_name: 'No key' } }),
			);
			expect(refused.result.status).toBe(400);
			expect(refused.events).toEqual([]);
		});

		it('adding tags emits client.tagged with tags_added', async () => {
			const { result, events } = await capture((e) =>
				call<Client>(e, 'PUT', '/clients/cl_grace/tags', { body: { add: ['vip', 'lead'] } }),
			);
			expect(result.status).toBe(200);
			expect(events).toHaveLength(1);
			expect(events[0]).toMatchObject({
				event: 'client.tagged',
				data: { client_id: 'cl_grace', tags_added: ['vip'] },
			});
			expect(events[0].data.tags).toEqual(result.body.data.tags);
			expect(result.body.data.tags).toEqual(expect.arrayContaining(['lead', 'vip']));
		});

		it('removing tags only emits client.updated, not client.tagged', async () => {
			const { result, events } = await capture((e) =>
				call<Client>(e, 'PUT', '/clients/cl_linus/tags', { body: { remove: ['newsletter'] } }),
			);
			expect(result.status).toBe(200);
			expect(events.map((g) => g.event)).toEqual(['client.updated']);
			expect(events[0].data).toMatchObject({ client_id: 'cl_linus', changes: expect.any(Object) });
			expect(JSON.stringify(events[0].data.changes)).toContain('newsletter');
		});

		it('adding and removing together emits client.tagged', async () => {
			const { events } = await capture((e) =>
				call(e, 'PUT', '/clients/cl_linus/tags', { body: { add: ['beta'], remove: ['lead'] } }),
			);
			const tagged = events.filter((g) => g.event === 'client.tagged');
			expect(tagged).toHaveLength(1);
			expect(tagged[0].data).toMatchObject({ client_id: 'cl_linus', tags_added: ['beta'] });
			expect(tagged[0].data.tags).not.toContain('lead');
		});

		it('a tag update that changes nothing emits nothing', async () => {
			const { result, events } = await capture((e) =>
				call(e, 'PUT', '/clients/cl_ada/tags', { body: { add: ['vip'], remove: ['not-there'] } }),
			);
			expect(result.status).toBe(200);
			expect(events).toEqual([]);
		});

		it('sending a message emits message.sent: the send response plus metadata', async () => {
			const { result, events } = await capture((e) =>
				call<Record<string, unknown>>(e, 'POST', '/bots/bot_shop/messages', {
					body: { client_id: 'cl_ada', text: 'Your parcel is on its way', type: 'text' },
				}),
			);
			expect(result.status).toBe(200);
			expect(events).toHaveLength(1);
			expect(events[0].event).toBe('message.sent');
			expect(events[0].data).toEqual({
				...result.body.data,
				metadata: { message_type: 'text', has_attachments: false },
			});
			expect(events[0].data).toMatchObject({
				client_id: 'cl_ada',
				bot_id: 'bot_shop',
				text: 'Your parcel is on its way',
			});
		});

		it('a send refused by an inactive bot emits nothing', async () => {
			const { result, events } = await capture((e) =>
				call(e, 'POST', '/bots/bot_legacy/messages', {
					body: { client_id: 'cl_ada', text: 'hello?' },
				}),
			);
			expect(result.status).toBe(403);
			expect(events).toEqual([]);
		});

		it('activating a scenario emits bot.started', async () => {
			const { result, events } = await capture((e) =>
				call<Record<string, unknown>>(e, 'PUT', '/bots/bot_shop/scenarios/order_status/activate'),
			);
			expect(result.status).toBe(200);
			expect(events).toHaveLength(1);
			expect(events[0]).toMatchObject({
				event: 'bot.started',
				data: {
					...result.body.data,
					bot_id: 'bot_shop',
					scenario_id: 'order_status',
					reason: 'scenario_activated',
				},
			});
		});
	});

	describe('from the admin API (the dashboard, a client writing)', () => {
		it('switching a bot off emits bot.stopped, on again bot.started, an unchanged status nothing', async () => {
			const off = await capture((e) =>
				admin(e, 'PATCH', '/bots/bot_support', { status: 'inactive' }),
			);
			expect(off.result.status).toBe(200);
			expect(off.events.map((g) => g.event)).toEqual(['bot.stopped']);
			expect(off.events[0].data).toMatchObject({ bot_id: 'bot_support' });

			const same = await capture((e) =>
				admin(e, 'PATCH', '/bots/bot_support', { status: 'inactive' }),
			);
			expect(same.events).toEqual([]);

			const on = await capture((e) => admin(e, 'PATCH', '/bots/bot_support', { status: 'active' }));
			expect(on.events.map((g) => g.event)).toEqual(['bot.started']);
			expect(on.events[0].data).toMatchObject({ bot_id: 'bot_support' });
		});

		it('an inbound message emits message.received with the Message fields', async () => {
			const { result, events } = await capture((e) =>
				admin<{ message: Record<string, unknown>; delivery_ids: string[] }>(e, 'POST', '/inbound', {
					bot_id: 'bot_shop',
					client_id: 'cl_ada',
					text: 'hi',
				}),
			);
			expect(result.status).toBe(201);
			expect(events).toHaveLength(1);
			expect(events[0].event).toBe('message.received');
			expect(events[0].deliveryId).toBe(result.body.data.delivery_ids[0]);
			expect(events[0].data).toEqual({
				message_id: expect.stringMatching(/\S/),
				client_id: 'cl_ada',
				bot_id: 'bot_shop',
				text: 'hi',
				channel: expect.stringMatching(/\S/),
				timestamp: expect.stringMatching(ISO_UTC),
				metadata: { message_type: 'text', has_attachments: false },
			});
		});

		it.each([
			['message.read', { client_id: 'cl_ada', message_id: 'msg_seed_2' }],
			['client.updated', { client_id: 'cl_ada', changes: { first_name: 'Augusta' } }],
			['bot.stopped', { bot_id: 'bot_shop', reason: 'maintenance' }],
			['bot.error', { bot_id: 'bot_shop', error: 'Channel token expired' }],
		])('POST /events delivers %s with its data', async (event, data) => {
			const { result, events } = await capture((e) => emit(e, event, data));
			expect(result.status).toBe(201);
			expect(events).toHaveLength(1);
			expect(events[0]).toMatchObject({ event, data });
			expect(events[0].data).toEqual(result.body.data.data);
			expect(result.body.data.delivery_ids).toEqual([events[0].deliveryId]);
		});

		it('order events carry the order and record it on the client', async () => {
			const created = await capture((e) =>
				emit(e, 'order.created', {
					client_id: 'cl_grace',
					order_id: 'ord_t1',
					total: 19.5,
					currency: 'USD',
				}),
			);
			expect(created.result.status).toBe(201);
			expect(created.events.map((g) => g.event)).toEqual(['order.created']);
			const order = created.events[0].data;
			expect(order).toEqual(
				expect.objectContaining({
					order_id: 'ord_t1',
					client_id: 'cl_grace',
					status: expect.any(String),
					total: 19.5,
					currency: 'USD',
					created_at: expect.stringMatching(ISO_UTC),
					updated_at: expect.stringMatching(ISO_UTC),
				}),
			);

			const e = emulator();
			const ordersOf = async (id: string) => {
				const r: Reply<{ orders: Order[] }> = await call(e, 'GET', `/clients/${id}`);
				expect(r.status).toBe(200);
				return r.body.data.orders.filter((o) => o.order_id === 'ord_t1');
			};
			expect(await ordersOf('cl_grace')).toEqual([
				expect.objectContaining({ order_id: 'ord_t1', total: 19.5 }),
			]);

			const updated = await capture((e2) =>
				emit(e2, 'order.updated', { client_id: 'cl_grace', order_id: 'ord_t1', status: 'shipped' }),
			);
			expect(updated.events.map((g) => g.event)).toEqual(['order.updated']);
			expect(updated.events[0].data).toMatchObject({
				order_id: 'ord_t1',
				client_id: 'cl_grace',
				status: 'shipped',
				total: 19.5,
				created_at: order.created_at,
			});
			expect(await ordersOf('cl_grace')).toEqual([expect.objectContaining({ status: 'shipped' })]);

			const completed = await capture((e2) =>
				emit(e2, 'order.completed', { client_id: 'cl_grace', order_id: 'ord_t1' }),
			);
			expect(completed.events.map((g) => g.event)).toEqual(['order.completed']);
			expect(completed.events[0].data).toMatchObject({
				order_id: 'ord_t1',
				client_id: 'cl_grace',
				status: 'completed',
			});
			expect(await ordersOf('cl_grace')).toEqual([
				expect.objectContaining({ status: 'completed', total: 19.5 }),
			]);
		});

		it.each([
			['without client_id', { order_id: 'ord_x', total: 5 }],
			['for an unknown client', { client_id: 'cl_nobody', total: 5 }],
		])('refuses an order event %s with 400 and delivers nothing', async (_name, data) => {
			const { result, events } = await capture((e) => emit(e, 'order.created', data));
			expect(result.status).toBe(400);
			expect(result.body.error?.details).toEqual([
				{ field: 'data.client_id', rule: expect.any(String) },
			]);
			expect(events).toEqual([]);
		});

		// A33: every event of a client carries client_id; A9: an unknown client id is 400.
		it.each([
			['message.read', 'without client_id', { message_id: 'msg_seed_2' }],
			[
				'message.read',
				'for an unknown client',
				{ client_id: 'cl_nobody', message_id: 'msg_seed_2' },
			],
			['client.updated', 'without client_id', { changes: { first_name: 'X' } }],
			[
				'client.updated',
				'for an unknown client',
				{ client_id: 'cl_nobody', changes: { first_name: 'X' } },
			],
		])(
			'refuses %s %s with 400 naming data.client_id and delivers nothing',
			async (event, _name, data) => {
				const { result, events } = await capture((e) => emit(e, event, data));
				expect(result.status).toBe(400);
				expect(result.body.error?.details).toEqual([
					{ field: 'data.client_id', rule: expect.any(String) },
				]);
				expect(events).toEqual([]);
			},
		);

		it.each(['bot.stopped', 'bot.error'])(
			'refuses %s without bot_id with 400 naming data.bot_id',
			async (event) => {
				const { result, events } = await capture((e) => emit(e, event, { error: 'boom' }));
				expect(result.status).toBe(400);
				expect(result.body.error?.details).toEqual([
					{ field: 'data.bot_id', rule: expect.any(String) },
				]);
				expect(events).toEqual([]);
			},
		);

		it.each(['order.deleted', 'message.deleted', 'webhook.test', ''])(
			'refuses the unknown event type %j with 400 and delivers nothing',
			async (event) => {
				const { result, events } = await capture((e) => emit(e, event, { client_id: 'cl_ada' }));
				expect(result.status).toBe(400);
				expect(result.body.error?.code).toBe('validation_error');
				expect(result.body.error?.details).toEqual([{ field: 'event', rule: expect.any(String) }]);
				expect(events).toEqual([]);
			},
		);
	});
});
