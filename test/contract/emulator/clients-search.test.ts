import { admin, call, useEmulator } from '../../helpers/emulator';
import {
	CLIENT_KEYS,
	SEED_CLIENTS,
	emulatorForSuite,
	expectInvalid,
	qs,
	today,
	addDays,
	createClient,
	search,
	ids,
	type Client,
} from './api-fixture';

// docs/service-assumptions.md#a15 (search semantics, creation order, unknown params), #a16 (limit and offset).
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

// docs/service-assumptions.md#a15 (created_after at the day start), driven by the emulator's clock.
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
