import { call } from '../../helpers/emulator';
import {
	ISO,
	CLIENT_KEYS,
	emulatorForSuite,
	expectError,
	expectInvalid,
	createClient,
	search,
	ids,
	customFieldsOfBytes,
	type Client,
	type FullClient,
} from './api-fixture';

// docs/service-assumptions.md#a18 (required fields, 201 vs 200, email wins), #a19 (email/phone), #a20 (16 KB), #a23 (record).
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
