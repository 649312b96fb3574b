import { admin } from '../../helpers/emulator';
import { send, json, expectJsonError, expectNamed, suite, itKeepsServing } from './raw-http';

// docs/service-assumptions.md#a27 (404 with the path, 405 with Allow, 401 before 404 under /v1).
describe('emulator: unknown paths and wrong methods', () => {
	const emulator = suite();

	it.each([
		'/v1/nope',
		'/v1/bots/bot_shop',
		'/v1/clients/cl_ada/orders',
		'/v1/bots/bot_shop/messages/extra',
		'/v1/',
		'/v1',
		'/v1//bots',
		'/v2/bots',
		'/',
		'/favicon.ico',
		'/_admin',
		'/_admin/nope',
		'//emulator.local/v1/bots',
		'//x/_admin/state',
	])('GET %s is 404 naming the path', async (path) => {
		const body = expectJsonError(await send(emulator(), 'GET', path), 404);
		expect(body.error.message).toContain(path);
	});

	it('checks authentication before the path under /v1', async () => {
		expectJsonError(
			await send(emulator(), 'GET', '/v1/nope', { auth: 'none' }),
			401,
			'unauthorized',
		);
	});

	it.each([
		['DELETE', '/v1/bots', 'GET'],
		['POST', '/v1/bots', 'GET'],
		['GET', '/v1/bots/bot_shop/messages', 'POST'],
		['PUT', '/v1/bots/bot_shop/stats', 'GET'],
		['GET', '/v1/bots/bot_shop/scenarios/welcome/activate', 'PUT'],
		['DELETE', '/v1/clients', 'GET, POST'],
		['OPTIONS', '/v1/clients', 'GET, POST'],
		['POST', '/v1/clients/cl_ada', 'GET'],
		['PATCH', '/v1/clients/cl_ada/tags', 'PUT'],
		['POST', '/v1/clients/cl_ada/messages', 'GET'],
		['GET', '/_admin/reset', 'POST'],
		['PUT', '/_admin/faults', 'DELETE, GET, POST'],
		['DELETE', '/_admin/bots', 'POST'],
		['GET', '/_admin/clients', 'POST'],
	])('%s %s is 405 with Allow: %s', async (method, path, allow) => {
		const r = await send(emulator(), method, path);
		expectJsonError(r, 405, 'method_not_allowed');
		expect((r.headers.get('allow') ?? '').split(', ').sort().join(', ')).toBe(allow);
	});

	it('answers HEAD with 405, an Allow header and no body', async () => {
		const r = await send(emulator(), 'HEAD', '/v1/clients');
		expect(r.status).toBe(405);
		expect(r.headers.get('allow')).toBe('GET, POST');
		expect(r.text).toBe('');
	});

	itKeepsServing(emulator);
});

// docs/service-assumptions.md#a2, #a15 (query parameters are strict), #a34 (admin API).
describe('emulator: bad paths, queries and admin input', () => {
	const emulator = suite();

	it.each([
		['GET', '/v1/clients/%E0%A4%A'],
		['GET', '/v1/clients/%zz/messages'],
		['GET', '/v1/clients/%'],
		['POST', '/v1/bots/%ff/messages'],
		['PUT', '/v1/bots/bot_shop/scenarios/%C3%28/activate'],
		['GET', '/_admin/clients/%E2%82'],
		['DELETE', '/_admin/keys/%'],
	])('%s %s (bad percent-encoding in a segment) is 400', async (method, path) => {
		const body = expectJsonError(
			await send(
				emulator(),
				method,
				path,
				method === 'GET' || method === 'DELETE' ? {} : { body: '{}' },
			),
			400,
			'validation_error',
		);
		expect(body.error.message).toMatch(/not valid URL encoding/);
	});

	it.each([
		['/v1/clients?limit=1&limit=2', 'limit'],
		['/v1/clients?email=a%40b.co&email=a%40b.co', 'email'],
		['/v1/bots/bot_shop/stats?from=2026-01-01&from=2026-01-02', 'from'],
		['/v1/clients/cl_ada/messages?offset=0&offset=0', 'offset'],
		['/v1/bots?x=1&x=2', 'x'],
		['/_admin/sent-messages?bot_id=a&bot_id=b', 'bot_id'],
		['/_admin/deliveries?event=x&event=y', 'event'],
	])('GET %s (a duplicated query parameter) is 400 naming it', async (path, field) => {
		const body = expectNamed(await send(emulator(), 'GET', path), field);
		expect(body.error.message).toContain('more than once');
	});

	it.each([
		[{ url: 'not a url' }, 'url'],
		[{ url: 'http://example.com/hook' }, 'url'],
		[{ url: 'ftp://localhost/hook' }, 'url'],
		[{ url: 42 }, 'url'],
		[{ url: '' }, 'url'],
		[{}, 'url'],
		[{ url: 'https://localhost:1/hook', events: ['nope'] }, 'events'],
		[{ url: 'https://localhost:1/hook', events: [] }, 'events'],
		[{ url: 'https://localhost:1/hook', secret: '' }, 'secret'],
		[{ url: 'https://localhost:1/hook', active: 'yes' }, 'active'],
	])('POST /_admin/subscriptions refuses %j, naming %s', async (body, field) => {
		const e = emulator();
		expectNamed(await send(e, 'POST', '/_admin/subscriptions', { body: json(body) }), field);
		const list = await admin<unknown[]>(e, 'GET', '/subscriptions');
		expect(list.body.data).toEqual([]);
	});

	it('refuses bad admin input with a 4xx and changes nothing', async () => {
		const e = emulator();
		const config = (await admin(e, 'GET', '/config')).body.data;
		expectNamed(
			await send(e, 'POST', '/_admin/config', { body: json({ rate_limit: 0 }) }),
			'rate_limit',
		);
		expectNamed(
			await send(e, 'POST', '/_admin/config', { body: json({ time_scale: -1 }) }),
			'time_scale',
		);
		expect((await admin(e, 'GET', '/config')).body.data).toEqual(config);

		expectJsonError(
			await send(e, 'POST', '/_admin/inbound', {
				body: json({ bot_id: 'bot_shop', client_id: 'cl_nobody', text: 'x' }),
			}),
			400,
			'invalid_client_id',
		);
		expectJsonError(
			await send(e, 'POST', '/_admin/inbound', {
				body: json({ bot_id: 'bot_nope', client_id: 'cl_ada', text: 'x' }),
			}),
			404,
			'bot_not_found',
		);
		expectNamed(
			await send(e, 'POST', '/_admin/events', { body: json({ event: 'order.created', data: {} }) }),
			'data.client_id',
		);
		expectNamed(
			await send(e, 'POST', '/_admin/events', { body: json({ event: 'nope' }) }),
			'event',
		);
		expectNamed(await send(e, 'POST', '/_admin/faults', { body: json({ path: '/nope' }) }), 'path');
		expectNamed(await send(e, 'POST', '/_admin/clock/advance', { body: json({ ms: -1 }) }), 'ms');
		expectJsonError(
			await send(e, 'POST', '/_admin/clients', { body: json({ count: 0 }) }),
			400,
			'validation_error',
		);
		expectJsonError(
			await send(e, 'POST', '/_admin/bots', { body: json({ id: 'bot_shop', name: 'Again' }) }),
			409,
			'conflict',
		);
		expectJsonError(
			await send(e, 'PATCH', '/_admin/bots/bot_nope', { body: json({ name: 'x' }) }),
			404,
			'bot_not_found',
		);
		expectJsonError(
			await send(e, 'POST', '/_admin/dead-letter/dlv_nope/redeliver'),
			404,
			'not_found',
		);
		expectJsonError(await send(e, 'GET', '/_admin/deliveries/dlv_nope'), 404, 'not_found');
		expectJsonError(await send(e, 'DELETE', '/_admin/keys/nope'), 404, 'not_found');
		expectNamed(await send(e, 'GET', '/_admin/clock?x=1'), 'x');

		expect((await admin(e, 'GET', '/faults')).body.data).toEqual([]);
		expect((await admin(e, 'GET', '/config')).body.data).toEqual(config);
	});

	itKeepsServing(emulator);
});
