import {
	BadRequestError,
	BotInactiveError,
	InvalidClientIdError,
	NotFoundError,
	UnauthorizedError,
	ValidationError,
} from '../../../runtime/api';
import { PROFILES } from '../../emulator';
import { admin, useEmulator } from '../../helpers/emulator';
import { clientFor } from '../../helpers/client';

// The runtime client against the emulator over HTTP: every operation of the spec, under the
// emulator's default answers and under its variant ones (docs/service-assumptions.md).
describe.each(PROFILES)('runtime client: operations (%s profile)', (profile) => {
	const variant = profile === 'variant';
	const emulator = useEmulator({ rateLimit: 100_000, profile });
	let client: ReturnType<typeof clientFor>;
	beforeAll(() => {
		client = clientFor(emulator(), { rateLimit: { limit: 100_000, windowMs: 60_000 } });
	});
	beforeEach(async () => {
		await admin(emulator(), 'POST', '/reset');
	});
	afterAll(async () => client.close());

	it('lists bots', async () => {
		const bots = await client.listBots();
		expect(bots.map((b) => b.id)).toEqual(['bot_shop', 'bot_support', 'bot_legacy']);
		expect(bots[0]).toMatchObject({
			name: 'Shop Assistant',
			status: 'active',
			channels: ['telegram', 'whatsapp'],
		});
		if (variant) expect(bots[0].language).toBe('en');
	});

	it('sends a message and the emulator records it', async () => {
		const sent = await client.sendMessage('bot_shop', {
			client_id: 'cl_ada',
			text: 'Your order shipped',
		});
		// What was sent comes back whatever the answer; the id only when the service gives one.
		expect(sent).toMatchObject({
			bot_id: 'bot_shop',
			client_id: 'cl_ada',
			text: 'Your order shipped',
		});
		const { body } = await admin<Array<{ message_id: string; text: string }>>(
			emulator(),
			'GET',
			'/sent-messages',
		);
		expect(body.data.map((m) => m.text)).toEqual(['Your order shipped']);
		expect(sent.message_id).toBe(variant ? undefined : body.data[0].message_id);
	});

	it('reads bot statistics for a period', async () => {
		const stats = await client.getBotStats('bot_shop', { from: '2020-01-01', to: '2099-12-31' });
		expect(stats).toMatchObject({ new_clients: 1, messages: 2, active_clients: 1 });
		if (variant) expect(stats.timezone).toBe('UTC'); // an unknown field, passed through
	});

	it('activates a scenario: the ids and the new status, whatever the answer holds', async () => {
		const result = await client.activateScenario('bot_shop', 'order_status');
		expect(result).toMatchObject({
			bot_id: 'bot_shop',
			scenario_id: 'order_status',
			status: 'active',
		});
		if (variant) expect(result.request_id).toMatch(/^req_/);
		else expect(result.activated_at).toEqual(expect.any(String));
		const shop = (await client.listBots()).find((b) => b.id === 'bot_shop');
		expect(shop?.active_scenario_id).toBe('order_status');
	});

	it('searches clients by tags, email and phone', async () => {
		expect((await client.searchClients({ tags: ['customer'] })).map((c) => c.id)).toEqual([
			'cl_ada',
			'cl_katherine',
		]);
		expect((await client.searchClients({ tags: ['customer', 'vip'] })).map((c) => c.id)).toEqual([
			'cl_ada',
		]);
		expect((await client.searchClients({ email: 'GRACE@example.com' })).map((c) => c.id)).toEqual([
			'cl_grace',
		]);
		expect((await client.searchClients({ phone: '+441632960001' })).map((c) => c.id)).toEqual([
			'cl_alan',
		]);
		expect(await client.searchClients({}, { limit: 2, offset: 1 })).toHaveLength(2);
	});

	it('creates a client once, then returns the existing one', async () => {
		const first = await client.createClient({
			email: 'new@example.com',
			first_name: 'New',
			tags: ['lead'],
			custom_fields: { a: { b: 1 } },
		});
		const again = await client.createClient({ email: 'NEW@example.com' });
		expect(first.created).toBe(true);
		expect(first.client).toMatchObject({ email: 'new@example.com', tags: ['lead'] });
		expect(again).toEqual({ client: first.client, created: false });
	});

	it('gets a client with its history and orders', async () => {
		const c = await client.getClient('cl_ada');
		expect(c).toMatchObject({ id: 'cl_ada', tags: ['customer', 'vip'] });
		expect(c.orders).toHaveLength(1);
		expect(c.messages?.map((m) => [m.message_id, m.direction, typeof m.timestamp])).toEqual([
			['msg_seed_1', 'inbound', 'string'],
			['msg_seed_2', 'outbound', 'string'],
		]);
		// The service's own names are kept beside ours.
		if (variant) expect(c.messages?.[0]).toMatchObject({ id: 'msg_seed_1', direction: 'inbound' });
		if (variant) expect(c.messages?.[0].sent_at).toBe(c.messages?.[0].timestamp);
	});

	it('adds and removes tags: the change asked for, and the record when it comes back', async () => {
		const c = await client.updateTags('cl_grace', { add: ['customer'], remove: ['lead'] });
		expect(c).toMatchObject({
			id: 'cl_grace',
			tags_added: ['customer'],
			tags_removed: ['lead'],
			tags: ['customer'],
		});
	});

	it('reads message history oldest first, in the documented shape', async () => {
		const messages = await client.getClientMessages('cl_ada');
		expect(messages.map((m) => [m.message_id, m.direction, m.client_id, m.bot_id])).toEqual([
			['msg_seed_1', 'inbound', 'cl_ada', 'bot_shop'],
			['msg_seed_2', 'outbound', 'cl_ada', 'bot_shop'],
		]);
		expect(
			messages.every((m) => typeof m.timestamp === 'string' && typeof m.text === 'string'),
		).toBe(true);
		if (variant) expect(messages[1]).toMatchObject({ id: 'msg_seed_2', sender: 'bot', read: true });
	});

	it('maps 400 Invalid client_id, 403 Bot is inactive, 404 and 401 to typed errors', async () => {
		await expect(client.getClient('cl_nobody')).rejects.toThrow(InvalidClientIdError);
		await expect(
			client.sendMessage('bot_shop', { client_id: 'cl_nobody', text: 'x' }),
		).rejects.toMatchObject({
			name: 'InvalidClientIdError',
			status: 400,
			serviceMessage: 'Invalid client_id',
		});
		await expect(
			client.sendMessage('bot_legacy', { client_id: 'cl_ada', text: 'x' }),
		).rejects.toMatchObject({
			name: 'BotInactiveError',
			status: 403,
			serviceMessage: 'Bot is inactive',
		});
		await expect(client.activateScenario('bot_shop', 'nope')).rejects.toMatchObject({
			name: 'NotFoundError',
			status: 404,
			message: 'Scenario not found',
		});
		await expect(client.activateScenario('bot_shop', 'nope')).rejects.toThrow(NotFoundError);
		const stranger = clientFor(emulator(), { key: 'mb_test_wrong' });
		await expect(stranger.listBots()).rejects.toMatchObject({
			name: 'UnauthorizedError',
			status: 401,
			message: 'Unauthorized',
			attempts: 1,
		});
		await expect(stranger.listBots()).rejects.toBeInstanceOf(UnauthorizedError);
		await stranger.close();
		await expect(
			client.sendMessage('bot_legacy', { client_id: 'cl_ada', text: 'x' }),
		).rejects.toBeInstanceOf(BotInactiveError);
	});

	it('refuses bad input before any request, naming every field and rule', async () => {
		const before = (await admin<unknown[]>(emulator(), 'GET', '/requests')).body.data.length;
		const attempts = [
			client.getBotStats('bot_shop', { from: '2024-02-30' }),
			client.getBotStats('bot_shop', { from: '2024-03-02', to: '2024-03-01' }),
			client.createClient({ phone: '0044 20 7123' }),
			client.createClient({ email: 'not-an-email' }),
			client.createClient({ email: 'a@b.co', custom_fields: { blob: 'x'.repeat(16_400) } }),
			client.updateTags('cl_ada', { add: [''] }),
			client.searchClients({}, { limit: 1001 }),
			client.searchClients({}, { offset: -1 }),
			client.sendMessage('bot_shop', { client_id: 'cl_ada', text: '' }),
			client.sendMessage('bot_shop', { client_id: 'cl_ada', text: 'x'.repeat(5_000) }),
		];
		const errors = await Promise.all(
			attempts.map((p) =>
				p.then(
					() => undefined,
					(e: unknown) => e,
				),
			),
		);
		for (const e of errors) expect(e).toBeInstanceOf(ValidationError);
		const messages = errors.map((e) => (e as ValidationError).message);
		expect(messages).toEqual([
			'from must be a real calendar date',
			'from must not be after the "to" date',
			'phone must be in international format: a plus sign, then 7 to 15 digits (e.g. +44 7911 123456)',
			'email must be a valid email address, like name@example.com',
			expect.stringMatching(
				/^custom_fields are too large: 16,4\d\d bytes, and the service takes at most 16,384 \(16 KB, counted as compact JSON\)\. Keep fewer or shorter fields$/,
			),
			'add.0 must be a non-empty string',
			'limit must be at most 1000',
			'offset must be 0 or more',
			'text must not be empty or only spaces',
			'text is too long: 5,000 characters, and the service sends at most 4,096. Shorten it, or send it as two messages',
		]);
		const after = (await admin<unknown[]>(emulator(), 'GET', '/requests')).body.data.length;
		expect(after).toBe(before);
	});

	it('measures custom fields as the service does: 16384 bytes pass, 16385 do not', async () => {
		const sized = (bytes: number) => ({ k: 'é'.repeat((bytes - 10) / 2) });
		expect(JSON.stringify(sized(16_384)).length).toBeLessThan(16_384);
		await expect(
			client.createClient({ email: 'fits@example.com', custom_fields: sized(16_384) }),
		).resolves.toMatchObject({ created: true });
		await expect(
			client.createClient({ email: 'over@example.com', custom_fields: { ...sized(16_384), x: 1 } }),
		).rejects.toThrow(ValidationError);
	});

	it("passes the service's field details through when it refuses input", async () => {
		await admin(emulator(), 'POST', '/faults', {
			path: '/v1/clients',
			method: 'POST',
			status: 422,
		});
		const error = await client.createClient({ email: 'x@example.com' }).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(BadRequestError);
	});
});
