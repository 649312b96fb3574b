import { admin, call } from '../../helpers/emulator';
import {
	ISO,
	emulatorForSuite,
	expectError,
	expectInvalid,
	createClient,
	inbound,
	history,
	type Bot,
	type HistoryItem,
	type FullClient,
	type Sent,
} from './api-fixture';

// docs/service-assumptions.md#a6, #a10 (bot status and channels); the {success, data} envelope of the spec.
describe('emulator: GET /bots', () => {
	const emulator = emulatorForSuite();

	it('lists the bots with the spec fields', async () => {
		const r = await call<Bot[]>(emulator(), 'GET', '/bots');
		expect(r.status).toBe(200);
		expect(r.headers.get('content-type')).toMatch(/^application\/json/);
		expect(r.body.success).toBe(true);
		expect(Array.isArray(r.body.data)).toBe(true);
		expect(r.body.data.map((b) => b.id)).toEqual(['bot_shop', 'bot_support', 'bot_legacy']);
		for (const bot of r.body.data) {
			expect(typeof bot.id).toBe('string');
			expect(typeof bot.name).toBe('string');
			expect(['active', 'inactive']).toContain(bot.status);
			expect(bot.created_at).toMatch(ISO);
			expect(new Date(bot.created_at).toISOString()).toBe(bot.created_at);
			expect(Array.isArray(bot.channels)).toBe(true);
			expect(bot.channels.length).toBeGreaterThan(0);
			for (const channel of bot.channels) expect(channel).toEqual(expect.any(String));
		}
		expect(r.body.data[0]).toMatchObject({
			name: 'Shop Assistant',
			status: 'active',
			channels: ['telegram', 'whatsapp'],
		});
	});

	it('shows a bot switched off through the admin API as inactive', async () => {
		await admin(emulator(), 'PATCH', '/bots/bot_support', { status: 'inactive' });
		const r = await call<Bot[]>(emulator(), 'GET', '/bots');
		expect(r.body.data.find((b) => b.id === 'bot_support')?.status).toBe('inactive');
	});

	it('takes no query parameters', async () => {
		expectInvalid(await call(emulator(), 'GET', '/bots?status=active'), 'status');
	});
});

// docs/service-assumptions.md#a7 (inactive bot), #a8 (unknown bot), #a9 (unknown client), #a11 (body), #a12 (response).
describe('emulator: POST /bots/{id}/messages', () => {
	const emulator = emulatorForSuite();

	it('sends a message and answers 200 with the A12 shape', async () => {
		const r = await call<Sent>(emulator(), 'POST', '/bots/bot_shop/messages', {
			body: { client_id: 'cl_ada', text: 'Your order shipped' },
		});
		expect(r.status).toBe(200);
		expect(r.body.success).toBe(true);
		expect(Object.keys(r.body.data).sort()).toEqual([
			'bot_id',
			'channel',
			'client_id',
			'message_id',
			'status',
			'text',
			'timestamp',
			'type',
		]);
		expect(r.body.data).toMatchObject({
			bot_id: 'bot_shop',
			client_id: 'cl_ada',
			text: 'Your order shipped',
			type: 'text',
			channel: 'telegram',
			status: 'sent',
		});
		expect(r.body.data.message_id).toEqual(expect.any(String));
		expect(r.body.data.message_id.length).toBeGreaterThan(0);
		expect(r.body.data.timestamp).toMatch(ISO);
	});

	it('accepts type "text" and refuses any other type', async () => {
		const e = emulator();
		const ok = await call<Sent>(e, 'POST', '/bots/bot_shop/messages', {
			body: { client_id: 'cl_ada', text: 'typed', type: 'text' },
		});
		expect(ok.status).toBe(200);
		expect(ok.body.data.type).toBe('text');
		for (const type of ['image', 'TEXT', '', 7]) {
			expectInvalid(
				await call(e, 'POST', '/bots/bot_shop/messages', {
					body: { client_id: 'cl_ada', text: 'x', type },
				}),
				'type',
			);
		}
	});

	it("answers on the channel the client last used with the bot, else the bot's first channel", async () => {
		const e = emulator();
		const client = await createClient(e, { email: 'channel@example.com' });
		const first = await call<Sent>(e, 'POST', '/bots/bot_shop/messages', {
			body: { client_id: client.id, text: 'hi' },
		});
		expect(first.body.data.channel).toBe('telegram');
		await inbound(e, client.id, 'hello from whatsapp', { channel: 'whatsapp' });
		const second = await call<Sent>(e, 'POST', '/bots/bot_shop/messages', {
			body: { client_id: client.id, text: 'hi' },
		});
		expect(second.body.data.channel).toBe('whatsapp');
	});

	it('accepts text of 4096 characters and refuses 4097 or none, naming text', async () => {
		const e = emulator();
		const send = (text: unknown) =>
			call(e, 'POST', '/bots/bot_shop/messages', { body: { client_id: 'cl_ada', text } });
		expect((await send('é'.repeat(4096))).status).toBe(200);
		expectInvalid(await send('a'.repeat(4097)), 'text');
		expectInvalid(await send(''), 'text');
		expectInvalid(
			await call(e, 'POST', '/bots/bot_shop/messages', { body: { client_id: 'cl_ada' } }),
			'text',
		);
		expectInvalid(
			await call(e, 'POST', '/bots/bot_shop/messages', { body: { text: 'x' } }),
			'client_id',
		);
	});

	it('answers 400 Invalid client_id for an unknown client', async () => {
		const r = await call(emulator(), 'POST', '/bots/bot_shop/messages', {
			body: { client_id: 'cl_nobody', text: 'hi' },
		});
		expect(r.status).toBe(400);
		expect(r.body).toEqual({
			success: false,
			error: { code: 'invalid_client_id', message: 'Invalid client_id' },
		});
	});

	it('answers 404 for an unknown bot', async () => {
		const r = await call(emulator(), 'POST', '/bots/bot_nope/messages', {
			body: { client_id: 'cl_ada', text: 'hi' },
		});
		expectError(r, 404, 'bot_not_found', 'Bot not found');
	});

	it('answers 403 Bot is inactive for a bot switched off, and sends nothing', async () => {
		const e = emulator();
		const patched = await admin(e, 'PATCH', '/bots/bot_shop', { status: 'inactive' });
		expect(patched.status).toBe(200);
		const r = await call(e, 'POST', '/bots/bot_shop/messages', {
			body: { client_id: 'cl_ada', text: 'hi' },
		});
		expect(r.status).toBe(403);
		expect(r.body).toEqual({
			success: false,
			error: { code: 'bot_inactive', message: 'Bot is inactive' },
		});
		const seeded = await call(e, 'POST', '/bots/bot_legacy/messages', {
			body: { client_id: 'cl_ada', text: 'hi' },
		});
		expectError(seeded, 403, 'bot_inactive', 'Bot is inactive');
		const { body } = await admin<Sent[]>(e, 'GET', '/sent-messages');
		expect(body.data).toEqual([]);
		expect((await history(e, 'cl_ada')).length).toBe(2);

		await admin(e, 'PATCH', '/bots/bot_shop', { status: 'active' });
		expect(
			(
				await call(e, 'POST', '/bots/bot_shop/messages', {
					body: { client_id: 'cl_ada', text: 'hi' },
				})
			).status,
		).toBe(200);
	});

	it("records the sent message in the admin log and in the client's history", async () => {
		const e = emulator();
		const r = await call<Sent>(e, 'POST', '/bots/bot_support/messages', {
			body: { client_id: 'cl_grace', text: 'We fixed it' },
		});
		expect(r.status).toBe(200);
		const sent = r.body.data;

		const log = await admin<HistoryItem[]>(e, 'GET', '/sent-messages');
		expect(log.body.data).toEqual([
			{
				message_id: sent.message_id,
				client_id: 'cl_grace',
				bot_id: 'bot_support',
				direction: 'outbound',
				text: 'We fixed it',
				type: 'text',
				channel: sent.channel,
				timestamp: sent.timestamp,
			},
		]);
		const filtered = await admin<HistoryItem[]>(e, 'GET', '/sent-messages?client_id=cl_ada');
		expect(filtered.body.data).toEqual([]);

		const items = await history(e, 'cl_grace');
		expect(items).toEqual(log.body.data);
		const full = await call<FullClient>(e, 'GET', '/clients/cl_grace');
		expect(full.body.data.message_count).toBe(1);
		expect(full.body.data.messages.map((m) => m.message_id)).toEqual([sent.message_id]);
	});
});
