import { admin, call } from '../../helpers/emulator';
import {
	CLIENT_KEYS,
	ISO,
	emulatorForSuite,
	createClient,
	inbound,
	history,
	type FullClient,
} from './api-fixture';

// docs/service-assumptions.md#a9 (unknown client), #a22 (full record), #a23, #a25 (orders).
describe('emulator: GET /clients/{id}', () => {
	const emulator = emulatorForSuite();

	it('returns the full record with messages, message_count, orders and tags', async () => {
		const r = await call<FullClient>(emulator(), 'GET', '/clients/cl_ada');
		expect(r.status).toBe(200);
		expect(r.body.success).toBe(true);
		const data = r.body.data;
		expect(Object.keys(data).sort()).toEqual(
			[...CLIENT_KEYS, 'message_count', 'messages', 'orders'].sort(),
		);
		expect(data).toMatchObject({
			id: 'cl_ada',
			email: 'ada@example.com',
			phone: '+442071234567',
			first_name: 'Ada',
			last_name: 'Lovelace',
			custom_fields: { loyalty: { tier: 'gold', points: 1200 } },
			tags: ['customer', 'vip'],
			message_count: 2,
		});
		expect(data.messages.map((m) => [m.message_id, m.direction])).toEqual([
			['msg_seed_1', 'inbound'],
			['msg_seed_2', 'outbound'],
		]);
		expect(data.orders).toHaveLength(1);
		expect(data.orders[0]).toMatchObject({
			order_id: 'ord_1001',
			client_id: 'cl_ada',
			status: 'paid',
			total: 49.9,
			currency: 'EUR',
		});
		expect(data.orders[0].created_at).toMatch(ISO);
		expect(data.orders[0].updated_at).toMatch(ISO);
	});

	it('returns an empty history and no orders for a new client', async () => {
		const e = emulator();
		const client = await createClient(e, { phone: '+4915700000001' });
		const r = await call<FullClient>(e, 'GET', `/clients/${client.id}`);
		expect(r.body.data).toEqual({ ...client, messages: [], message_count: 0, orders: [] });
	});

	it('carries only the last 20 messages, oldest first, and the full count', async () => {
		const e = emulator();
		for (let i = 1; i <= 25; i++) await inbound(e, 'cl_ada', `m${i}`);
		const r = await call<FullClient>(e, 'GET', '/clients/cl_ada');
		expect(r.body.data.message_count).toBe(27);
		expect(r.body.data.messages).toHaveLength(20);
		expect(r.body.data.messages.map((m) => m.text)).toEqual(
			Array.from({ length: 20 }, (_, i) => `m${i + 6}`),
		);
		expect(r.body.data.messages).toEqual((await history(e, 'cl_ada')).slice(-20));
	});

	it('shows an order created through the admin API', async () => {
		const e = emulator();
		await admin(e, 'POST', '/events', {
			event: 'order.created',
			data: { client_id: 'cl_grace', total: 10, order_id: 'ord_g1' },
		});
		const r = await call<FullClient>(e, 'GET', '/clients/cl_grace');
		expect(r.body.data.orders).toEqual([
			expect.objectContaining({ order_id: 'ord_g1', client_id: 'cl_grace', total: 10 }),
		]);
	});

	it('answers 400 Invalid client_id for an unknown client', async () => {
		const e = emulator();
		for (const id of ['cl_nobody', 'ada@example.com', '%20']) {
			const r = await call(e, 'GET', `/clients/${id}`);
			expect(r.status).toBe(400);
			expect(r.body).toEqual({
				success: false,
				error: { code: 'invalid_client_id', message: 'Invalid client_id' },
			});
		}
	});

	it("the dashboard's answer for an unknown client says how to seed one; the API's stays the service's", async () => {
		const e = emulator();
		const inboundReply = await admin(e, 'POST', '/inbound', {
			bot_id: 'bot_shop',
			client_id: 'cl_nobody',
			text: 'hi',
		});
		const record = await admin(e, 'GET', '/clients/cl_nobody');
		for (const r of [inboundReply, record]) {
			expect(r.status).toBe(400);
			expect(r.body.error?.code).toBe('invalid_client_id');
			expect(r.body.error?.message).toMatch(
				/^Invalid client_id: no client "cl_nobody" in the emulator \(clients here: cl_\w+.*seed one with POST \/_admin\/clients \{"clients": \[/,
			);
		}
	});
});
