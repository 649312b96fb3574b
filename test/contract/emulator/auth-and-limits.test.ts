import { admin, call, useEmulator } from '../../helpers/emulator';

// docs/service-assumptions.md: "Authentication", "Rate limit", "Faults".
describe('emulator: authentication', () => {
	const emulator = useEmulator();

	it('accepts the key as a Bearer token', async () => {
		const r = await call(emulator(), 'GET', '/bots');
		expect(r.status).toBe(200);
		expect(r.body.success).toBe(true);
	});

	it('accepts the key in X-API-Key', async () => {
		const r = await call(emulator(), 'GET', '/bots', {
			key: null,
			headers: { 'X-API-Key': emulator().apiKey },
		});
		expect(r.status).toBe(200);
	});

	it('accepts both headers when they carry the same key', async () => {
		const r = await call(emulator(), 'GET', '/bots', {
			headers: { 'X-API-Key': emulator().apiKey, Authorization: `Bearer ${emulator().apiKey}` },
		});
		expect(r.status).toBe(200);
	});

	it.each([
		['no key', { key: null }],
		['a wrong Bearer key', { key: 'mb_test_wrong' }],
		['a wrong X-API-Key', { key: null, headers: { 'X-API-Key': 'nope' } }],
		['a Basic scheme', { key: null, headers: { Authorization: 'Basic abc' } }],
		['two different keys', { headers: { 'X-API-Key': 'other' } }],
	])('answers 401 Unauthorized to %s', async (_name, options) => {
		const r = await call(emulator(), 'GET', '/clients', options);
		expect(r.status).toBe(401);
		expect(r.body).toEqual({
			success: false,
			error: { code: 'unauthorized', message: 'Unauthorized' },
		});
		expect(r.headers.get('www-authenticate')).toBe('Bearer');
	});

	it('refuses a revoked (expired) key', async () => {
		const { body } = await admin<{ api_key: string }>(emulator(), 'POST', '/keys');
		expect((await call(emulator(), 'GET', '/bots', { key: body.data.api_key })).status).toBe(200);
		await admin(emulator(), 'DELETE', `/keys/${body.data.api_key}`);
		expect((await call(emulator(), 'GET', '/bots', { key: body.data.api_key })).status).toBe(401);
	});
});

describe('emulator: rate limit of 100 requests per minute per token', () => {
	const emulator = useEmulator();

	it('answers the 101st request in a minute with 429 and Retry-After, and recovers after the window', async () => {
		const e = emulator();
		const statuses: number[] = [];
		for (let i = 0; i < 100; i++) statuses.push((await call(e, 'GET', '/bots')).status);
		expect(statuses.every((s) => s === 200)).toBe(true);

		const refused = await call(e, 'GET', '/bots');
		expect(refused.status).toBe(429);
		expect(refused.body.error).toEqual({ code: 'rate_limited', message: 'Rate limit exceeded' });
		const retryAfter = Number(refused.headers.get('retry-after'));
		expect(retryAfter).toBeGreaterThanOrEqual(1);
		expect(retryAfter).toBeLessThanOrEqual(60);

		// Another token has its own budget.
		const { body } = await admin<{ api_key: string }>(e, 'POST', '/keys');
		expect((await call(e, 'GET', '/bots', { key: body.data.api_key })).status).toBe(200);

		// Refused requests do not count: after the window the first key works again.
		await admin(e, 'POST', '/clock/advance', { ms: 60_000 });
		expect((await call(e, 'GET', '/bots')).status).toBe(200);
	});

	it('counts any 60 s window, not calendar minutes', async () => {
		const e = emulator();
		await admin(e, 'POST', '/reset');
		await admin(e, 'POST', '/config', { rate_limit: 3, rate_window_ms: 60_000 });
		await call(e, 'GET', '/bots');
		await admin(e, 'POST', '/clock/advance', { ms: 40_000 });
		await call(e, 'GET', '/bots');
		await call(e, 'GET', '/bots');
		// 30 s later the first hit has left the window, the other two have not.
		await admin(e, 'POST', '/clock/advance', { ms: 30_000 });
		expect((await call(e, 'GET', '/bots')).status).toBe(200);
		const refused = await call(e, 'GET', '/bots');
		expect(refused.status).toBe(429);
		expect(Number(refused.headers.get('retry-after'))).toBe(30);
		await admin(e, 'POST', '/config', { rate_limit: 100 });
	});
});

describe('emulator: injected faults', () => {
	const emulator = useEmulator();

	it('answers the next N requests to a path with 500, then recovers', async () => {
		const e = emulator();
		await admin(e, 'POST', '/faults', { path: '/v1/bots', count: 2 });
		const a = await call(e, 'GET', '/bots');
		const b = await call(e, 'GET', '/bots');
		const c = await call(e, 'GET', '/bots');
		expect([a.status, b.status, c.status]).toEqual([500, 500, 200]);
		expect(a.body.error).toEqual({ code: 'internal_error', message: 'Internal server error' });
	});

	it('matches a method and a path prefix', async () => {
		const e = emulator();
		await admin(e, 'POST', '/faults', { path: '/v1/clients/*', method: 'PUT', status: 503 });
		expect((await call(e, 'GET', '/clients/cl_ada')).status).toBe(200);
		const r = await call(e, 'PUT', '/clients/cl_ada/tags', { body: { add: ['x'] } });
		expect(r.status).toBe(503);
	});

	it('hangs a request until the caller gives up, and keeps serving others', async () => {
		const e = emulator();
		await admin(e, 'POST', '/faults', { path: '/v1/bots', kind: 'hang' });
		const started = Date.now();
		await expect(
			fetch(`${e.baseUrl}/bots`, {
				headers: { Authorization: `Bearer ${e.apiKey}` },
				signal: AbortSignal.timeout(300),
			}),
		).rejects.toThrow();
		expect(Date.now() - started).toBeGreaterThanOrEqual(250);
		expect((await call(e, 'GET', '/bots')).status).toBe(200);
	});

	it('delays a request by delay_ms, then answers it', async () => {
		const e = emulator();
		await admin(e, 'POST', '/faults', { path: '/v1/bots', kind: 'hang', delay_ms: 200 });
		const started = Date.now();
		const r = await call(e, 'GET', '/bots');
		expect(r.status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(180);
	});
});
