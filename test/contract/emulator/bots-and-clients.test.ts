import type { RunningEmulator } from '../../emulator';
import { admin, call, useEmulator, type Reply } from '../../helpers/emulator';

type Bot = { id: string; name: string; status: string; created_at: string; channels: string[] };
type Client = {
	id: string;
	email: string | null;
	phone: string | null;
	first_name: string | null;
	last_name: string | null;
	custom_fields: Record<string, unknown>;
	tags: string[];
	created_at: string;
	updated_at: string;
};
type HistoryItem = {
	message_id: string;
	client_id: string;
	bot_id: string;
	direction: 'inbound' | 'outbound';
	text: string;
	type: string;
	channel: string;
	timestamp: string;
};
type FullClient = Client & {
	messages: HistoryItem[];
	message_count: number;
	orders: Array<Record<string, unknown>>;
};
type Sent = {
	message_id: string;
	bot_id: string;
	client_id: string;
	text: string;
	type: string;
	channel: string;
	status: string;
	timestamp: string;
};
type Stats = {
	bot_id: string;
	from: string;
	to: string;
	new_clients: number;
	messages: number;
	active_clients: number;
	conversion: number;
};

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const CLIENT_KEYS = [
	'created_at',
	'custom_fields',
	'email',
	'first_name',
	'id',
	'last_name',
	'phone',
	'tags',
	'updated_at',
];
const SEED_CLIENTS = ['cl_ada', 'cl_grace', 'cl_alan', 'cl_katherine', 'cl_linus'];

/** One emulator per describe block, with a rate limit that never interferes, reset before each test. */
function emulatorForSuite(): () => RunningEmulator {
	const emulator = useEmulator();
	beforeAll(async () => {
		await admin(emulator(), 'POST', '/config', { rate_limit: 100_000 });
	});
	beforeEach(async () => {
		await admin(emulator(), 'POST', '/reset');
	});
	return emulator;
}

function expectError(r: Reply, status: number, code: string, message?: string | RegExp): void {
	expect(r.status).toBe(status);
	expect(r.body.success).toBe(false);
	expect(r.body.error?.code).toBe(code);
	if (typeof message === 'string') expect(r.body.error?.message).toBe(message);
	else if (message) expect(r.body.error?.message).toMatch(message);
}

/** A 400 validation error whose message and details both name `field`. */
function expectInvalid(r: Reply, field: string): void {
	expectError(r, 400, 'validation_error');
	expect(r.body.error?.message).toContain(field);
	const fields = ((r.body.error?.details ?? []) as Array<{ field: string }>).map((d) => d.field);
	expect(fields.some((f) => f === field || f.startsWith(`${field}.`))).toBe(true);
}

const qs = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;

async function today(e: RunningEmulator): Promise<string> {
	const { body } = await admin<{ now: string }>(e, 'GET', '/clock');
	return body.data.now.slice(0, 10);
}

function addDays(ymd: string, days: number): string {
	return new Date(Date.parse(`${ymd}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

async function createClient(e: RunningEmulator, body: Record<string, unknown>): Promise<Client> {
	const r = await call<Client>(e, 'POST', '/clients', { body });
	expect(r.status).toBe(201);
	return r.body.data;
}

async function inbound(
	e: RunningEmulator,
	clientId: string,
	text: string,
	extra: { bot_id?: string; channel?: string } = {},
): Promise<void> {
	const r = await admin(e, 'POST', '/inbound', {
		bot_id: 'bot_shop',
		client_id: clientId,
		text,
		...extra,
	});
	expect(r.status).toBe(201);
}

async function stats(e: RunningEmulator, botId: string, query = ''): Promise<Stats> {
	const r = await call<Stats>(e, 'GET', `/bots/${botId}/stats${query}`);
	expect(r.status).toBe(200);
	expect(r.body.success).toBe(true);
	return r.body.data;
}

async function history(e: RunningEmulator, clientId: string): Promise<HistoryItem[]> {
	const r = await call<HistoryItem[]>(e, 'GET', `/clients/${clientId}/messages?limit=1000`);
	expect(r.status).toBe(200);
	return r.body.data;
}

async function search(e: RunningEmulator, params: Record<string, string>): Promise<Client[]> {
	const r = await call<Client[]>(e, 'GET', `/clients${qs(params)}`);
	expect(r.status).toBe(200);
	expect(r.body.success).toBe(true);
	return r.body.data;
}

const ids = (list: Array<{ id: string }>) => list.map((c) => c.id);

/**
 * An object (with nesting) whose compact JSON is exactly `bytes` bytes of UTF-8, padded with
 * `filler` (which may be a multi-byte character).
 */
function customFieldsOfBytes(bytes: number, filler: string): Record<string, unknown> {
	const make = (pad: string) => ({ profile: { tier: 'gold', scores: [1, 2.5, null, true] }, pad });
	const room = bytes - Buffer.byteLength(JSON.stringify(make('')));
	const per = Buffer.byteLength(filler);
	const value = make(filler.repeat(Math.floor(room / per)) + 'x'.repeat(room % per));
	expect(Buffer.byteLength(JSON.stringify(value))).toBe(bytes);
	return value;
}

// docs/service-assumptions.md: A6, A10 (bot status and channels); the {success, data} envelope of the spec.
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

// docs/service-assumptions.md: A7 (inactive bot), A8 (unknown bot), A9 (unknown client), A11 (body), A12 (response).
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

// docs/service-assumptions.md: A7 (stats readable when inactive), A8, A13 (default period, fields, counts).
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

// docs/service-assumptions.md: A7 (inactive bot refuses), A8, A14 (response, unknown scenario, empty body).
describe('emulator: PUT /bots/{id}/scenarios/{scenario_id}/activate', () => {
	const emulator = emulatorForSuite();

	it('activates a scenario of the bot and answers the A14 shape', async () => {
		const r = await call<{
			bot_id: string;
			scenario_id: string;
			status: string;
			activated_at: string;
		}>(emulator(), 'PUT', '/bots/bot_support/scenarios/support/activate');
		expect(r.status).toBe(200);
		expect(r.body.success).toBe(true);
		expect(Object.keys(r.body.data).sort()).toEqual([
			'activated_at',
			'bot_id',
			'scenario_id',
			'status',
		]);
		expect(r.body.data).toMatchObject({
			bot_id: 'bot_support',
			scenario_id: 'support',
			status: 'active',
		});
		expect(r.body.data.activated_at).toMatch(ISO);
	});

	it('accepts an empty JSON object as the body', async () => {
		const r = await call(emulator(), 'PUT', '/bots/bot_shop/scenarios/order_status/activate', {
			body: {},
		});
		expect(r.status).toBe(200);
	});

	it('answers 404 Scenario not found for a scenario the bot does not have', async () => {
		const e = emulator();
		expectError(
			await call(e, 'PUT', '/bots/bot_shop/scenarios/support/activate'),
			404,
			'not_found',
			'Scenario not found',
		);
		expectError(
			await call(e, 'PUT', '/bots/bot_shop/scenarios/nope/activate'),
			404,
			'not_found',
			'Scenario not found',
		);
	});

	it('answers 404 Bot not found for an unknown bot', async () => {
		expectError(
			await call(emulator(), 'PUT', '/bots/bot_nope/scenarios/welcome/activate'),
			404,
			'bot_not_found',
		);
	});

	it('answers 403 Bot is inactive for a switched-off bot', async () => {
		const e = emulator();
		expectError(
			await call(e, 'PUT', '/bots/bot_legacy/scenarios/welcome/activate'),
			403,
			'bot_inactive',
			'Bot is inactive',
		);
		await admin(e, 'PATCH', '/bots/bot_shop', { status: 'inactive' });
		expectError(
			await call(e, 'PUT', '/bots/bot_shop/scenarios/welcome/activate'),
			403,
			'bot_inactive',
			'Bot is inactive',
		);
	});

	it.each([
		['an object with a field', { rawBody: '{"force":true}' }],
		['an array', { rawBody: '[]' }],
		['null', { rawBody: 'null' }],
		['a string', { rawBody: '"now"' }],
	])('answers 400 to a non-empty body: %s', async (_name, { rawBody }) => {
		const r = await call(emulator(), 'PUT', '/bots/bot_shop/scenarios/welcome/activate', {
			rawBody,
			headers: { 'Content-Type': 'application/json' },
		});
		expectInvalid(r, 'body');
	});
});

// docs/service-assumptions.md: A18 (required fields, 201 vs 200, email wins), A19 (email/phone), A20 (16 KB), A23 (record).
describe('emulator: POST /clients', () => {
	const emulator = emulatorForSuite();

	it('creates a client with 201 and the A23 record', async () => {
		const r = await call<Client>(emulator(), 'POST', '/clients', {
			body: { email: 'new@example.com', first_name: 'New', tags: ['a', 'b'] },
		});
		expect(r.status).toBe(201);
		expect(r.body.success).toBe(true);
		expect(Object.keys(r.body.data).sort()).toEqual(CLIENT_KEYS);
		expect(r.body.data).toMatchObject({
			email: 'new@example.com',
			phone: null,
			first_name: 'New',
			last_name: null,
			custom_fields: {},
			tags: ['a', 'b'],
		});
		expect(r.body.data.id).toEqual(expect.any(String));
		expect(r.body.data.created_at).toMatch(ISO);
		expect(r.body.data.updated_at).toBe(r.body.data.created_at);
	});

	it('answers 200 with the existing record, unchanged, for the same email in another case', async () => {
		const e = emulator();
		const created = await createClient(e, { email: 'Mixed.Case@Example.com', first_name: 'First' });
		const again = await call<Client>(e, 'POST', '/clients', {
			body: { email: 'mixed.case@EXAMPLE.COM', first_name: 'Second', tags: ['x'] },
		});
		expect(again.status).toBe(200);
		expect(again.body.success).toBe(true);
		expect(again.body.data).toEqual(created);
		expect(ids(await search(e, { email: 'mixed.case@example.com' }))).toEqual([created.id]);
	});

	it('answers 200 with the existing record for the same phone', async () => {
		const e = emulator();
		const created = await createClient(e, { phone: '+15551234567', first_name: 'Phone' });
		const again = await call<Client>(e, 'POST', '/clients', {
			body: { phone: '+15551234567', email: 'someone-new@example.com' },
		});
		expect(again.status).toBe(200);
		expect(again.body.data).toEqual(created);
		expect(await search(e, { email: 'someone-new@example.com' })).toEqual([]);
	});

	it('lets the email match win when email and phone name two different clients', async () => {
		const r = await call<Client>(emulator(), 'POST', '/clients', {
			body: { email: 'ada@example.com', phone: '+12025550123' },
		});
		expect(r.status).toBe(200);
		expect(r.body.data.id).toBe('cl_ada');
	});

	it('creates exactly one client under 20 concurrent identical requests', async () => {
		const e = emulator();
		const body = { email: 'race@example.com', phone: '+4915112345678', first_name: 'Race' };
		const replies = await Promise.all(
			Array.from({ length: 20 }, () => call<Client>(e, 'POST', '/clients', { body })),
		);
		const statuses = replies.map((r) => r.status);
		expect(statuses.filter((s) => s === 201)).toHaveLength(1);
		expect(statuses.filter((s) => s === 200)).toHaveLength(19);
		expect(new Set(replies.map((r) => r.body.data.id)).size).toBe(1);
		expect(await search(e, { email: 'race@example.com' })).toHaveLength(1);
		expect(await search(e, { phone: '+4915112345678' })).toHaveLength(1);
	});

	it('creates exactly one client under concurrent requests that recognise it by email case or phone', async () => {
		const e = emulator();
		const bodies = Array.from({ length: 20 }, (_, i) =>
			i % 3 === 0
				? { phone: '+33612345678' }
				: { email: i % 2 ? 'RACE2@example.com' : 'race2@example.com', phone: '+33612345678' },
		);
		const replies = await Promise.all(
			bodies.map((body) => call<Client>(e, 'POST', '/clients', { body })),
		);
		expect(replies.filter((r) => r.status === 201)).toHaveLength(1);
		expect(new Set(replies.map((r) => r.body.data.id)).size).toBe(1);
		expect(await search(e, { phone: '+33612345678' })).toHaveLength(1);
	});

	it('requires email or phone', async () => {
		const e = emulator();
		for (const body of [{}, { first_name: 'Nobody' }, { tags: ['x'], custom_fields: {} }]) {
			const r = await call(e, 'POST', '/clients', { body });
			expectError(r, 400, 'validation_error', /email or phone/);
		}
		expect(await createClient(e, { phone: '+4930123456' })).toMatchObject({
			email: null,
			phone: '+4930123456',
		});
	});

	it('refuses an invalid email, naming email', async () => {
		const e = emulator();
		for (const email of [
			'not-an-email',
			'a@',
			'@b.com',
			'a b@c.com',
			'',
			`${'a'.repeat(250)}@x.io`,
		]) {
			expectInvalid(await call(e, 'POST', '/clients', { body: { email } }), 'email');
		}
	});

	it('refuses a phone that is not E.164, naming phone', async () => {
		const e = emulator();
		for (const phone of [
			'442071234567',
			'+0442071234',
			'+123456',
			'+1234567890123456',
			'+44 20 7123 4567',
			'',
		]) {
			expectInvalid(await call(e, 'POST', '/clients', { body: { phone } }), 'phone');
		}
		expect((await call(e, 'POST', '/clients', { body: { phone: '+1234567' } })).status).toBe(201);
		expect(
			(await call(e, 'POST', '/clients', { body: { phone: '+123456789012345' } })).status,
		).toBe(201);
	});

	it('stores nested custom_fields as given', async () => {
		const e = emulator();
		const custom_fields = {
			address: { city: 'Oslo', geo: { lat: 59.9, lng: 10.7 } },
			list: [1, 'two', { three: [3] }],
			flag: false,
			none: null,
		};
		const created = await createClient(e, { email: 'nested@example.com', custom_fields });
		expect(created.custom_fields).toEqual(custom_fields);
		const full = await call<FullClient>(e, 'GET', `/clients/${created.id}`);
		expect(full.body.data.custom_fields).toEqual(custom_fields);
	});

	it('refuses custom_fields that are not an object', async () => {
		const e = emulator();
		for (const custom_fields of [[1, 2], 'text', 5, null]) {
			expectInvalid(
				await call(e, 'POST', '/clients', { body: { email: 'cf@example.com', custom_fields } }),
				'custom_fields',
			);
		}
	});

	it.each([
		['ASCII', 'a'],
		['2-byte UTF-8', 'é'],
		['3-byte UTF-8', '€'],
		['4-byte UTF-8', '😀'],
	])(
		'accepts custom_fields of exactly 16384 bytes and refuses 16385 (%s)',
		async (_name, filler) => {
			const e = emulator();
			const fits = customFieldsOfBytes(16_384, filler);
			const created = await call<Client>(e, 'POST', '/clients', {
				body: { email: 'fits@example.com', custom_fields: fits },
			});
			expect(created.status).toBe(201);
			expect(created.body.data.custom_fields).toEqual(fits);

			const over = customFieldsOfBytes(16_385, filler);
			const r = await call(e, 'POST', '/clients', {
				body: { email: 'over@example.com', custom_fields: over },
			});
			expectInvalid(r, 'custom_fields');
			expect(r.body.error?.message).toContain('16384');
			expect(r.body.error?.message).toContain('16385');
			expect(await search(e, { email: 'over@example.com' })).toEqual([]);
		},
	);

	it('measures bytes, not characters', async () => {
		// 16385 bytes but far fewer characters.
		const over = customFieldsOfBytes(16_385, '€');
		expect(JSON.stringify(over).length).toBeLessThan(16_384);
		const r = await call(emulator(), 'POST', '/clients', {
			body: { email: 'bytes@example.com', custom_fields: over },
		});
		expectInvalid(r, 'custom_fields');
	});
});

// docs/service-assumptions.md: A15 (search semantics, creation order, unknown params), A16 (limit and offset).
describe('emulator: GET /clients', () => {
	const emulator = emulatorForSuite();

	it('lists clients in the envelope, in creation order', async () => {
		const r = await call<Client[]>(emulator(), 'GET', '/clients');
		expect(r.status).toBe(200);
		expect(r.body.success).toBe(true);
		expect(ids(r.body.data)).toEqual(SEED_CLIENTS);
		for (const client of r.body.data) expect(Object.keys(client).sort()).toEqual(CLIENT_KEYS);
	});

	it('finds by email, exact and case-insensitive', async () => {
		const e = emulator();
		expect(ids(await search(e, { email: 'ada@example.com' }))).toEqual(['cl_ada']);
		expect(ids(await search(e, { email: 'ADA@Example.COM' }))).toEqual(['cl_ada']);
		expect(await search(e, { email: 'ada@example' })).toEqual([]);
		expect(await search(e, { email: 'da@example.com' })).toEqual([]);
	});

	it('finds by phone, exact', async () => {
		const e = emulator();
		expect(ids(await search(e, { phone: '+442071234567' }))).toEqual(['cl_ada']);
		expect(await search(e, { phone: '442071234567' })).toEqual([]);
		expect(await search(e, { phone: '+44207123456' })).toEqual([]);
	});

	it('finds by tags: a client must have all of them', async () => {
		const e = emulator();
		expect(ids(await search(e, { tags: 'customer' }))).toEqual(['cl_ada', 'cl_katherine']);
		expect(ids(await search(e, { tags: 'customer,vip' }))).toEqual(['cl_ada']);
		expect(ids(await search(e, { tags: 'lead' }))).toEqual(['cl_grace', 'cl_linus']);
		expect(ids(await search(e, { tags: 'lead,newsletter' }))).toEqual(['cl_linus']);
		expect(ids(await search(e, { tags: 'newsletter, lead' }))).toEqual(['cl_linus']);
		expect(await search(e, { tags: 'vip,lead' })).toEqual([]);
		expect(await search(e, { tags: 'unknown' })).toEqual([]);
	});

	it('finds by created_after: on or after the start of that day (UTC)', async () => {
		const e = emulator();
		const { body } = await call<Client[]>(e, 'GET', '/clients');
		const alan = body.data.find((c) => c.id === 'cl_alan') as Client;
		const alanDay = alan.created_at.slice(0, 10);
		expect(ids(await search(e, { created_after: alanDay }))).toEqual([
			'cl_alan',
			'cl_katherine',
			'cl_linus',
		]);
		expect(ids(await search(e, { created_after: addDays(alanDay, 1) }))).toEqual([
			'cl_katherine',
			'cl_linus',
		]);
		expect(ids(await search(e, { created_after: '2000-01-01' }))).toEqual(SEED_CLIENTS);
		expect(await search(e, { created_after: addDays(await today(e), 1) })).toEqual([]);
		expectInvalid(
			await call(e, 'GET', `/clients${qs({ created_after: '2026-02-30' })}`),
			'created_after',
		);
		expectInvalid(
			await call(e, 'GET', `/clients${qs({ created_after: '2026-01-01T00:00:00Z' })}`),
			'created_after',
		);
	});

	it("filters by custom_fields: every top-level key must equal the client's", async () => {
		const e = emulator();
		const eu = await createClient(e, {
			email: 'eu@example.com',
			custom_fields: { plan: 'pro', region: 'eu', seats: 5 },
		});
		const us = await createClient(e, {
			email: 'us@example.com',
			custom_fields: { plan: 'pro', region: 'us' },
		});
		await createClient(e, {
			email: 'free@example.com',
			custom_fields: { plan: 'free', region: 'eu' },
		});
		const cf = (value: unknown) => ({ custom_fields: JSON.stringify(value) });
		expect(ids(await search(e, cf({ plan: 'pro' })))).toEqual([eu.id, us.id]);
		expect(ids(await search(e, cf({ plan: 'pro', region: 'eu' })))).toEqual([eu.id]);
		expect(ids(await search(e, cf({ seats: 5 })))).toEqual([eu.id]);
		expect(ids(await search(e, cf({ seats: '5' })))).toEqual([]);
		expect(ids(await search(e, cf({ loyalty: { tier: 'gold', points: 1200 } })))).toEqual([
			'cl_ada',
		]);
		expect(await search(e, cf({ loyalty: { tier: 'gold' } }))).toEqual([]);
		expect((await search(e, cf({}))).length).toBe(8);
		for (const bad of ['not json', '[1]', '"text"', 'null', '42']) {
			expectInvalid(await call(e, 'GET', `/clients${qs({ custom_fields: bad })}`), 'custom_fields');
		}
	});

	it('combines filters with AND', async () => {
		const e = emulator();
		expect(ids(await search(e, { tags: 'customer', email: 'katherine@example.com' }))).toEqual([
			'cl_katherine',
		]);
		expect(await search(e, { tags: 'vip', email: 'katherine@example.com' })).toEqual([]);
		expect(ids(await search(e, { tags: 'lead', phone: '+358401234567' }))).toEqual(['cl_linus']);
	});

	it('refuses unknown query parameters', async () => {
		const e = emulator();
		expectInvalid(await call(e, 'GET', '/clients?name=Ada'), 'name');
		expectInvalid(await call(e, 'GET', '/clients?tag=vip'), 'tag');
	});

	it('pages with a default limit of 50 and a maximum of 1000', async () => {
		const e = emulator();
		const seeded = await admin<{ created: number; ids: string[] }>(e, 'POST', '/clients', {
			count: 1200,
		});
		expect(seeded.status).toBe(201);
		expect(seeded.body.data.created).toBe(1200);
		const all = [...SEED_CLIENTS, ...seeded.body.data.ids];

		const first = await search(e, {});
		expect(ids(first)).toEqual(all.slice(0, 50));
		const max = await search(e, { limit: '1000' });
		expect(ids(max)).toEqual(all.slice(0, 1000));
		const rest = await search(e, { limit: '1000', offset: '1000' });
		expect(ids(rest)).toEqual(all.slice(1000));
		expect(rest.length).toBe(205);
		expect(await search(e, { limit: '1000', offset: '1205' })).toEqual([]);
		expect(await search(e, { offset: '999999' })).toEqual([]);

		const combined = [...max, ...rest];
		for (let i = 1; i < combined.length; i++) {
			expect(combined[i].created_at >= combined[i - 1].created_at).toBe(true);
		}
	});

	it('returns disjoint consecutive pages with offset', async () => {
		const e = emulator();
		const seeded = await admin<{ ids: string[] }>(e, 'POST', '/clients', { count: 1200 });
		const all = [...SEED_CLIENTS, ...seeded.body.data.ids];
		const pages: string[][] = [];
		for (let offset = 0; ; offset += 250) {
			const page = ids(await search(e, { limit: '250', offset: String(offset) }));
			pages.push(page);
			if (page.length < 250) break;
		}
		expect(pages.map((p) => p.length)).toEqual([250, 250, 250, 250, 205]);
		const flat = pages.flat();
		expect(new Set(flat).size).toBe(flat.length);
		expect(flat).toEqual(all);

		expect(ids(await search(e, { limit: '3', offset: '4' }))).toEqual(all.slice(4, 7));
	});

	it('pages a filtered search', async () => {
		const e = emulator();
		await admin(e, 'POST', '/clients', { count: 120, tags: ['bulk'] });
		expect((await search(e, { tags: 'bulk' })).length).toBe(50);
		expect((await search(e, { tags: 'bulk', limit: '50', offset: '100' })).length).toBe(20);
	});

	it.each(['1001', '0', '-1', 'abc', '1.5', '1e3', '', ' 5', '0x10'])(
		'refuses limit=%p',
		async (limit) => {
			expectInvalid(await call(emulator(), 'GET', `/clients${qs({ limit })}`), 'limit');
		},
	);

	it.each(['-1', 'abc', '1.5', ''])('refuses offset=%p', async (offset) => {
		expectInvalid(await call(emulator(), 'GET', `/clients${qs({ offset })}`), 'offset');
	});
});

// docs/service-assumptions.md: A15 (created_after at the day start), driven by the emulator's clock.
describe('emulator: GET /clients created_after at the UTC day boundary', () => {
	const emulator = useEmulator();

	it('includes a client created just after midnight and excludes one created the day before', async () => {
		const e = emulator();
		await admin(e, 'POST', '/config', { rate_limit: 100_000 });
		const before = await createClient(e, { email: 'before-midnight@example.com' });
		const { body } = await admin<{ now: string }>(e, 'GET', '/clock');
		const now = Date.parse(body.data.now);
		const nextMidnight = Math.ceil((now + 1) / 86_400_000) * 86_400_000;
		await admin(e, 'POST', '/clock/advance', { ms: nextMidnight - now });
		const after = await createClient(e, { email: 'after-midnight@example.com' });
		const day = new Date(nextMidnight).toISOString().slice(0, 10);
		expect(after.created_at.slice(0, 10)).toBe(day);
		expect(before.created_at.slice(0, 10)).toBe(addDays(day, -1));

		expect(ids(await search(e, { created_after: day }))).toEqual([after.id]);
		expect(ids(await search(e, { created_after: addDays(day, -1) }))).toEqual([
			before.id,
			after.id,
		]);
		expect(await search(e, { created_after: addDays(day, 1) })).toEqual([]);
	});
});

// docs/service-assumptions.md: A9 (unknown client), A22 (full record), A23, A25 (orders).
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
});

// docs/service-assumptions.md: A9, A21 (tag rules, no-ops, response = updated client), A23.
describe('emulator: PUT /clients/{id}/tags', () => {
	const emulator = emulatorForSuite();
	const put = (e: RunningEmulator, id: string, body: unknown) =>
		call<Client>(e, 'PUT', `/clients/${id}/tags`, { body });

	it('adds and removes tags and answers with the updated client record', async () => {
		const e = emulator();
		const added = await put(e, 'cl_grace', { add: ['vip', '  spaced  '] });
		expect(added.status).toBe(200);
		expect(added.body.success).toBe(true);
		expect(Object.keys(added.body.data).sort()).toEqual(CLIENT_KEYS);
		expect(added.body.data).toMatchObject({
			id: 'cl_grace',
			email: 'grace@example.com',
			tags: ['lead', 'vip', 'spaced'],
		});
		expect(added.body.data.updated_at >= added.body.data.created_at).toBe(true);

		const removed = await put(e, 'cl_grace', { remove: ['lead'] });
		expect(removed.body.data.tags).toEqual(['vip', 'spaced']);

		const both = await put(e, 'cl_grace', { add: ['new'], remove: ['vip'] });
		expect(both.body.data.tags).toEqual(['spaced', 'new']);

		const full = await call<FullClient>(e, 'GET', '/clients/cl_grace');
		expect(full.body.data.tags).toEqual(['spaced', 'new']);
		const { tags, updated_at } = full.body.data;
		expect({ tags, updated_at }).toEqual({
			tags: both.body.data.tags,
			updated_at: both.body.data.updated_at,
		});
	});

	it('is idempotent: adding a present tag or removing an absent one changes nothing', async () => {
		const e = emulator();
		const first = await put(e, 'cl_ada', { add: ['repeat'] });
		const second = await put(e, 'cl_ada', { add: ['repeat'] });
		expect(second.status).toBe(200);
		expect(second.body.data).toEqual(first.body.data);
		expect(second.body.data.tags).toEqual(['customer', 'vip', 'repeat']);
		const absent = await put(e, 'cl_ada', { remove: ['never-there'] });
		expect(absent.status).toBe(200);
		expect(absent.body.data).toEqual(first.body.data);
		const duplicates = await put(e, 'cl_ada', { add: ['dup', 'dup', ' dup'] });
		expect(duplicates.body.data.tags).toEqual(['customer', 'vip', 'repeat', 'dup']);
	});

	it('refuses an update that lists no tag', async () => {
		const e = emulator();
		for (const body of [{}, { add: [] }, { remove: [] }, { add: [], remove: [] }]) {
			expectError(await put(e, 'cl_ada', body), 400, 'validation_error', /at least one tag/);
		}
	});

	it('refuses a tag that is both added and removed', async () => {
		const e = emulator();
		expectInvalid(await put(e, 'cl_ada', { add: ['vip'], remove: ['vip'] }), 'remove');
		expectInvalid(await put(e, 'cl_ada', { add: ['x', 'y'], remove: [' y '] }), 'remove');
		expect((await call<FullClient>(e, 'GET', '/clients/cl_ada')).body.data.tags).toEqual([
			'customer',
			'vip',
		]);
	});

	it('refuses empty, blank, too long and non-string tags', async () => {
		const e = emulator();
		expectInvalid(await put(e, 'cl_ada', { add: [''] }), 'add');
		expectInvalid(await put(e, 'cl_ada', { add: ['   '] }), 'add');
		expectInvalid(await put(e, 'cl_ada', { remove: [''] }), 'remove');
		expectInvalid(await put(e, 'cl_ada', { add: ['t'.repeat(65)] }), 'add');
		expectInvalid(await put(e, 'cl_ada', { add: [5] }), 'add');
		expectInvalid(await put(e, 'cl_ada', { add: 'vip' }), 'add');
		expectInvalid(
			await put(e, 'cl_ada', { add: Array.from({ length: 101 }, (_, i) => `t${i}`) }),
			'add',
		);
		expect((await put(e, 'cl_ada', { add: ['t'.repeat(64)] })).status).toBe(200);
	});

	it('answers 400 Invalid client_id for an unknown client', async () => {
		const r = await put(emulator(), 'cl_nobody', { add: ['x'] });
		expect(r.body).toEqual({
			success: false,
			error: { code: 'invalid_client_id', message: 'Invalid client_id' },
		});
		expect(r.status).toBe(400);
	});
});

// docs/service-assumptions.md: A9, A16 (paging of history), A24 (order and item shape).
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
