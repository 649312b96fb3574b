import { admin, call, type Reply } from '../../helpers/emulator';
import { ISO_UTC, useEventCapture, type Order } from './event-capture';
import { hiFromAda } from './event-shapes';

// docs/service-assumptions.md#a32 (which operation emits which event), #a33 (data of each event),
// #a30 (signature on every delivery), #a25 (order fields), #a14 (bot.started on activation), #a6 (bot switched off).
describe('emulator events: the documented mapping reaches a subscribed receiver', () => {
	const { emulator, capture, emit } = useEventCapture();

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
			expect(events[0].data).toEqual(hiFromAda());
		});

		it('takes a message id once: written again, it is answered 200 and sends nothing', async () => {
			const write = (e: Parameters<typeof admin>[0]) =>
				admin<{ delivery_ids: string[] }>(e, 'POST', '/inbound', {
					bot_id: 'bot_shop',
					client_id: 'cl_ada',
					text: 'once',
					message_id: 'msg_once',
				});
			const first = await capture(write);
			const again = await capture(write);
			expect([first.result.status, first.events.length]).toEqual([201, 1]);
			expect([again.result.status, again.events.length]).toEqual([200, 0]);
			expect(again.result.body.data.delivery_ids).toEqual([]);
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
