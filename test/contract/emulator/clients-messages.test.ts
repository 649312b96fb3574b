import { call } from '../../helpers/emulator';
import {
	ISO,
	emulatorForSuite,
	expectInvalid,
	qs,
	createClient,
	inbound,
	type HistoryItem,
	type Sent,
} from './api-fixture';

// docs/service-assumptions.md#a9, #a16 (paging of history), #a24 (order and item shape).
describe('emulator: GET /clients/{id}/messages', () => {
	const emulator = emulatorForSuite();

	it('lists messages both ways, oldest first, with the A24 item shape', async () => {
		const e = emulator();
		const client = await createClient(e, { email: 'talk@example.com' });
		await inbound(e, client.id, 'one');
		const sent = await call<Sent>(e, 'POST', '/bots/bot_shop/messages', {
			body: { client_id: client.id, text: 'two' },
		});
		await inbound(e, client.id, 'three', { bot_id: 'bot_support' });

		const r = await call<HistoryItem[]>(e, 'GET', `/clients/${client.id}/messages`);
		expect(r.status).toBe(200);
		expect(r.body.success).toBe(true);
		expect(r.body.data.map((m) => [m.text, m.direction, m.bot_id])).toEqual([
			['one', 'inbound', 'bot_shop'],
			['two', 'outbound', 'bot_shop'],
			['three', 'inbound', 'bot_support'],
		]);
		for (const m of r.body.data) {
			expect(Object.keys(m).sort()).toEqual([
				'bot_id',
				'channel',
				'client_id',
				'direction',
				'message_id',
				'text',
				'timestamp',
				'type',
			]);
			expect(m).toMatchObject({ client_id: client.id, type: 'text' });
			expect(m.timestamp).toMatch(ISO);
			expect(m.channel).toEqual(expect.any(String));
		}
		expect(r.body.data[1].message_id).toBe(sent.body.data.message_id);
		const stamps = r.body.data.map((m) => m.timestamp);
		expect([...stamps].sort()).toEqual(stamps);
	});

	it('pages with a default limit of 50 and offset', async () => {
		const e = emulator();
		const client = await createClient(e, { email: 'chatty@example.com' });
		for (let i = 0; i < 60; i++) await inbound(e, client.id, `m${i}`);
		const texts = (list: HistoryItem[]) => list.map((m) => m.text);
		const all = Array.from({ length: 60 }, (_, i) => `m${i}`);

		const page = async (query: string) => {
			const r = await call<HistoryItem[]>(e, 'GET', `/clients/${client.id}/messages${query}`);
			expect(r.status).toBe(200);
			return texts(r.body.data);
		};
		expect(await page('')).toEqual(all.slice(0, 50));
		expect(await page('?offset=50')).toEqual(all.slice(50));
		expect(await page('?limit=10&offset=5')).toEqual(all.slice(5, 15));
		expect(await page('?limit=1000')).toEqual(all);
		expect(await page('?offset=60')).toEqual([]);
		const pages: string[] = [];
		for (let offset = 0; offset < 60; offset += 25)
			pages.push(...(await page(`?limit=25&offset=${offset}`)));
		expect(pages).toEqual(all);
	});

	it('refuses bad paging and unknown parameters', async () => {
		const e = emulator();
		for (const limit of ['0', '1001', '-1', 'abc', '2.5']) {
			expectInvalid(await call(e, 'GET', `/clients/cl_ada/messages${qs({ limit })}`), 'limit');
		}
		expectInvalid(await call(e, 'GET', '/clients/cl_ada/messages?offset=-3'), 'offset');
		expectInvalid(await call(e, 'GET', '/clients/cl_ada/messages?order=desc'), 'order');
	});

	it('answers 400 Invalid client_id for an unknown client', async () => {
		const r = await call(emulator(), 'GET', '/clients/cl_nobody/messages');
		expect(r.status).toBe(400);
		expect(r.body).toEqual({
			success: false,
			error: { code: 'invalid_client_id', message: 'Invalid client_id' },
		});
	});
});
