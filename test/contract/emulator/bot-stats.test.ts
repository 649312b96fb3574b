import { admin, call } from '../../helpers/emulator';
import {
	emulatorForSuite,
	expectError,
	expectInvalid,
	qs,
	today,
	addDays,
	createClient,
	inbound,
	stats,
	type Stats,
} from './api-fixture';

// docs/service-assumptions.md#a7 (stats readable when inactive), #a8, #a13 (default period, fields, counts).
describe('emulator: GET /bots/{id}/stats', () => {
	const emulator = emulatorForSuite();

	it('answers new_clients and messages as numbers, with the A13 fields', async () => {
		const r = await call<Stats>(emulator(), 'GET', '/bots/bot_shop/stats');
		expect(r.status).toBe(200);
		expect(r.body.success).toBe(true);
		const data = r.body.data;
		expect(Object.keys(data).sort()).toEqual([
			'active_clients',
			'bot_id',
			'conversion',
			'from',
			'messages',
			'new_clients',
			'to',
		]);
		expect(typeof data.new_clients).toBe('number');
		expect(typeof data.messages).toBe('number');
		expect(typeof data.active_clients).toBe('number');
		expect(typeof data.conversion).toBe('number');
		expect(data.conversion).toBeGreaterThanOrEqual(0);
		expect(data.conversion).toBeLessThanOrEqual(1);
		// The seed: Ada wrote to bot_shop two days ago, was answered, and ordered three days ago.
		expect(data).toMatchObject({
			bot_id: 'bot_shop',
			new_clients: 1,
			messages: 2,
			active_clients: 1,
			conversion: 1,
		});
	});

	it('defaults to today and the 29 days before it (30 days inclusive)', async () => {
		const e = emulator();
		const day = await today(e);
		const data = await stats(e, 'bot_shop');
		expect(data.to).toBe(day);
		expect(data.from).toBe(addDays(day, -29));
		const onlyTo = await stats(e, 'bot_shop', qs({ to: '2026-03-31' }));
		expect([onlyTo.from, onlyTo.to]).toEqual(['2026-03-02', '2026-03-31']);
		const onlyFrom = await stats(e, 'bot_shop', qs({ from: '2020-01-01' }));
		expect([onlyFrom.from, onlyFrom.to]).toEqual(['2020-01-01', day]);
	});

	it('counts only the days of the period, both ends included', async () => {
		const e = emulator();
		const day = await today(e);
		const seedDay = addDays(day, -2);
		expect(await stats(e, 'bot_shop', qs({ from: seedDay, to: seedDay }))).toMatchObject({
			messages: 2,
			new_clients: 1,
		});
		expect(await stats(e, 'bot_shop', qs({ from: addDays(day, -1), to: day }))).toMatchObject({
			messages: 0,
			new_clients: 0,
			active_clients: 0,
			conversion: 0,
		});
		expect(
			await stats(e, 'bot_shop', qs({ from: addDays(seedDay, -40), to: addDays(seedDay, -1) })),
		).toMatchObject({
			messages: 0,
			new_clients: 0,
		});
	});

	it('changes its counts after inbound and outbound messages and an order', async () => {
		const e = emulator();
		const before = await stats(e, 'bot_shop');
		const client = await createClient(e, { email: 'stats@example.com' });
		await inbound(e, client.id, 'hello');
		await inbound(e, client.id, 'anyone there?');
		expect(
			(
				await call(e, 'POST', '/bots/bot_shop/messages', {
					body: { client_id: client.id, text: 'yes' },
				})
			).status,
		).toBe(200);

		const after = await stats(e, 'bot_shop');
		expect(after.messages).toBe(before.messages + 3);
		expect(after.new_clients).toBe(before.new_clients + 1);
		expect(after.active_clients).toBe(before.active_clients + 1);
		expect(after.conversion).toBe(0.5);
		// Today only: the new client is new, Ada (first contact two days ago) is not.
		const day = await today(e);
		expect(await stats(e, 'bot_shop', qs({ from: day, to: day }))).toMatchObject({
			new_clients: 1,
			messages: 3,
			active_clients: 1,
			conversion: 0,
		});

		const order = await admin(e, 'POST', '/events', {
			event: 'order.created',
			data: { client_id: client.id },
		});
		expect(order.status).toBe(201);
		expect((await stats(e, 'bot_shop')).conversion).toBe(1);
		// Other bots are not affected.
		expect(await stats(e, 'bot_support')).toMatchObject({
			messages: 0,
			new_clients: 0,
			active_clients: 0,
		});
	});

	it('stays readable for an inactive bot', async () => {
		const e = emulator();
		await admin(e, 'PATCH', '/bots/bot_shop', { status: 'inactive' });
		expect(await stats(e, 'bot_shop')).toMatchObject({
			bot_id: 'bot_shop',
			messages: 2,
			new_clients: 1,
		});
		expect(await stats(e, 'bot_legacy')).toMatchObject({ bot_id: 'bot_legacy', messages: 0 });
	});

	it('refuses from after to, impossible or malformed dates and unknown parameters', async () => {
		const e = emulator();
		const get = (query: string) => call(e, 'GET', `/bots/bot_shop/stats${query}`);
		expectInvalid(await get(qs({ from: '2026-03-02', to: '2026-03-01' })), 'from');
		expect((await get(qs({ from: '2026-03-01', to: '2026-03-01' }))).status).toBe(200);
		expectInvalid(await get(qs({ from: '2026-02-30' })), 'from');
		expectInvalid(await get(qs({ to: '2026-02-30' })), 'to');
		expectInvalid(await get(qs({ from: '2025-02-29' })), 'from');
		expect((await get(qs({ from: '2024-02-29', to: '2024-03-01' }))).status).toBe(200);
		for (const bad of ['2026-1-5', '05/01/2026', '2026-01-05T00:00:00Z', '', 'yesterday']) {
			expectInvalid(await get(qs({ from: bad })), 'from');
		}
		expectInvalid(await get(qs({ period: '30d' })), 'period');
		expectInvalid(await get(qs({ from: '2026-01-01', limit: '10' })), 'limit');
	});

	it('answers 404 for an unknown bot', async () => {
		expectError(
			await call(emulator(), 'GET', '/bots/bot_nope/stats'),
			404,
			'bot_not_found',
			'Bot not found',
		);
	});
});
