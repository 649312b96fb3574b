/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: raw TCP requests, never loaded by n8n */
import fc from 'fast-check';
import { connect } from 'node:net';

import type { RunningEmulator } from '../../emulator';
import { admin, useEmulator } from '../../helpers/emulator';

type ErrorBody = {
	success: false;
	error: { code: string; message: string; details?: Array<{ field: string; rule: string }> };
};
type Answer = { status: number; headers: Headers; text: string };
type Auth = 'bearer' | 'x-api-key' | 'none' | 'wrong' | 'mismatch';
type SendOptions = {
	body?: string | Uint8Array | ReadableStream<Uint8Array>;
	/** null: send no Content-Type of our own. */
	contentType?: string | null;
	auth?: Auth;
};

const origin = (e: RunningEmulator) => e.baseUrl.replace(/\/v1$/, '');

function authHeaders(e: RunningEmulator, auth: Auth): Record<string, string> {
	switch (auth) {
		case 'bearer':
			return { Authorization: `Bearer ${e.apiKey}` };
		case 'x-api-key':
			return { 'X-API-Key': e.apiKey };
		case 'wrong':
			return { Authorization: 'Bearer mb_test_wrong' };
		case 'mismatch':
			return { Authorization: `Bearer ${e.apiKey}`, 'X-API-Key': 'other' };
		case 'none':
			return {};
	}
}

/** One request over real HTTP; `path` is taken as is (it starts with /v1, /_admin or anything). */
async function send(
	e: RunningEmulator,
	method: string,
	path: string,
	options: SendOptions = {},
): Promise<Answer> {
	const headers = authHeaders(e, options.auth ?? 'bearer');
	const contentType = options.contentType === undefined ? 'application/json' : options.contentType;
	if (options.body !== undefined && contentType !== null) headers['Content-Type'] = contentType;
	const init: RequestInit & { duplex?: 'half' } = {
		method,
		headers,
		body: options.body,
		signal: AbortSignal.timeout(5_000),
	};
	if (options.body instanceof ReadableStream) init.duplex = 'half';
	const res = await fetch(`${origin(e)}${path}`, init);
	return { status: res.status, headers: res.headers, text: await res.text() };
}

const json = (value: unknown) => JSON.stringify(value);

/** A 4xx with the documented error body; returns the body. */
function expectJsonError(r: Answer, status: number, code?: string): ErrorBody {
	expect(r.status).toBe(status);
	expect(r.headers.get('content-type')).toMatch(/^application\/json/);
	const body = JSON.parse(r.text) as ErrorBody;
	expect(body.success).toBe(false);
	expect(body.error).toEqual(
		expect.objectContaining({ code: expect.any(String), message: expect.any(String) }),
	);
	expect(body.error.message.length).toBeGreaterThan(0);
	if (code) expect(body.error.code).toBe(code);
	return body;
}

/** A 400 validation error whose message and details name `field` (or an item of it, as `field.0`). */
function expectNamed(r: Answer, field: string): ErrorBody {
	const body = expectJsonError(r, 400, 'validation_error');
	expect(body.error.message).toContain(field);
	const fields = (body.error.details ?? []).map((d) => d.field);
	expect(fields.filter((f) => f === field || f.startsWith(`${field}.`))).not.toEqual([]);
	return body;
}

async function expectServing(e: RunningEmulator): Promise<void> {
	const r = await send(e, 'GET', '/v1/bots');
	expect(r.status).toBe(200);
	expect((JSON.parse(r.text) as { success: boolean }).success).toBe(true);
}

function suite(): () => RunningEmulator {
	const emulator = useEmulator();
	beforeAll(async () => {
		await admin(emulator(), 'POST', '/config', { rate_limit: 100_000 });
	});
	return emulator;
}

/** The last test of a block: whatever came before, the emulator still answers. */
const itKeepsServing = (emulator: () => RunningEmulator) =>
	it('keeps serving afterwards', async () => {
		await expectServing(emulator());
	});

// docs/service-assumptions.md: A2 (error body), A26 (bodies: JSON only, 64 KB, 415, unknown fields).
describe('emulator: bad request bodies', () => {
	const emulator = suite();

	it.each([
		['POST', '/v1/clients', '{"email":'],
		['POST', '/v1/clients', "{'email': 'a@b.co'}"],
		['POST', '/v1/clients', '\uFEFF{"email":"bom@example.com"}'],
		['POST', '/v1/bots/bot_shop/messages', '{"client_id":"cl_ada","text":"hi",}'],
		['PUT', '/v1/clients/cl_ada/tags', '{"add":["x"]'],
		['PUT', '/v1/bots/bot_shop/scenarios/welcome/activate', '{'],
		['POST', '/_admin/bots', '{name:"x"}'],
		['POST', '/_admin/inbound', 'undefined'],
	])('%s %s with malformed JSON %p is 400 malformed_json', async (method, path, body) => {
		expectJsonError(await send(emulator(), method, path, { body }), 400, 'malformed_json');
	});

	it.each([
		['text/plain', 'POST', '/v1/clients', json({ email: 'a@b.co' })],
		['application/x-www-form-urlencoded', 'POST', '/v1/clients', 'email=a%40b.co'],
		['multipart/form-data; boundary=x', 'PUT', '/v1/clients/cl_ada/tags', json({ add: ['x'] })],
		[
			'application/jsonx',
			'POST',
			'/v1/bots/bot_shop/messages',
			json({ client_id: 'cl_ada', text: 'x' }),
		],
		['application/xml', 'POST', '/_admin/inbound', '<inbound/>'],
		['', 'POST', '/v1/clients', json({ email: 'a@b.co' })],
	])('a body sent as %p is 415', async (contentType, method, path, body) => {
		expectJsonError(
			await send(emulator(), method, path, { body, contentType }),
			415,
			'unsupported_media_type',
		);
	});

	it('a body without any Content-Type is 415', async () => {
		const body = new TextEncoder().encode(json({ email: 'a@b.co' }));
		expectJsonError(
			await send(emulator(), 'POST', '/v1/clients', { body, contentType: null }),
			415,
			'unsupported_media_type',
		);
	});

	it('accepts application/json with parameters and in any case', async () => {
		const e = emulator();
		const a = await send(e, 'POST', '/v1/clients', {
			body: json({ email: 'ct1@example.com' }),
			contentType: 'application/json; charset=utf-8',
		});
		expect(a.status).toBe(201);
		const b = await send(e, 'POST', '/v1/clients', {
			body: json({ email: 'ct2@example.com' }),
			contentType: 'Application/JSON',
		});
		expect(b.status).toBe(201);
	});

	it('refuses a body over 65536 bytes with 413, and accepts exactly 65536', async () => {
		const e = emulator();
		const padded = (size: number, email: string) => {
			const text = json({ email });
			return text.slice(0, -1) + ' '.repeat(size - Buffer.byteLength(text)) + '}';
		};
		const over = padded(65_537, 'big@example.com');
		expect(Buffer.byteLength(over)).toBe(65_537);
		expectJsonError(await send(e, 'POST', '/v1/clients', { body: over }), 413, 'payload_too_large');
		expectJsonError(
			await send(e, 'POST', '/_admin/bots', { body: 'x'.repeat(100_000) }),
			413,
			'payload_too_large',
		);
		const exact = padded(65_536, 'exact@example.com');
		expect(Buffer.byteLength(exact)).toBe(65_536);
		expect((await send(e, 'POST', '/v1/clients', { body: exact })).status).toBe(201);
	});

	it('refuses a chunked body over 65536 bytes (no Content-Length) with 413', async () => {
		const chunk = new Uint8Array(16_384).fill(0x20);
		let sent = 0;
		const body = new ReadableStream<Uint8Array>({
			pull(controller) {
				if (sent >= 5) return controller.close();
				sent++;
				controller.enqueue(chunk);
			},
		});
		expectJsonError(
			await send(emulator(), 'POST', '/v1/clients', { body }),
			413,
			'payload_too_large',
		);
	});

	it.each([
		['POST', '/v1/clients', { email: 'u@example.com', nickname: 'x' }, 'nickname'],
		['POST', '/v1/clients', { email: 'u@example.com', Email: 'x' }, 'Email'],
		[
			'POST',
			'/v1/bots/bot_shop/messages',
			{ client_id: 'cl_ada', text: 'hi', priority: 'high' },
			'priority',
		],
		['PUT', '/v1/clients/cl_ada/tags', { add: ['x'], replace: ['y'] }, 'replace'],
		['POST', '/_admin/bots', { name: 'B', colour: 'red' }, 'colour'],
		[
			'POST',
			'/_admin/inbound',
			{ bot_id: 'bot_shop', client_id: 'cl_ada', text: 'x', sender: 'me' },
			'sender',
		],
		['POST', '/_admin/config', { rate_limit: 100_000, burst: 5 }, 'burst'],
	])('%s %s refuses an unknown field (%j), naming it', async (method, path, body, field) => {
		const r = expectNamed(await send(emulator(), method, path, { body: json(body) }), field);
		expect(r.error.details).toContainEqual({ field, rule: expect.stringContaining('not a known') });
	});

	it.each([
		['POST', '/v1/bots/bot_shop/messages', { client_id: 'cl_ada', text: 42 }, 'text'],
		['POST', '/v1/bots/bot_shop/messages', { client_id: 7, text: 'x' }, 'client_id'],
		['POST', '/v1/bots/bot_shop/messages', { client_id: 'cl_ada', text: ['a'] }, 'text'],
		['POST', '/v1/clients', { email: 'w@example.com', tags: 'x' }, 'tags'],
		['POST', '/v1/clients', { email: 5 }, 'email'],
		['POST', '/v1/clients', { email: 'w@example.com', first_name: {} }, 'first_name'],
		['POST', '/v1/clients', { email: 'w@example.com', custom_fields: 'x' }, 'custom_fields'],
		['PUT', '/v1/clients/cl_ada/tags', { add: 'vip' }, 'add'],
		['PUT', '/v1/clients/cl_ada/tags', { remove: [1] }, 'remove'],
		['POST', '/_admin/bots', { name: 5 }, 'name'],
		['PATCH', '/_admin/bots/bot_shop', { status: 'paused' }, 'status'],
		['POST', '/_admin/config', { rate_limit: 'fast' }, 'rate_limit'],
		['POST', '/_admin/clock/advance', { ms: '1000' }, 'ms'],
		['POST', '/_admin/inbound', { bot_id: 'bot_shop', client_id: 'cl_ada', text: false }, 'text'],
	])('%s %s refuses a wrong type (%j), naming the field', async (method, path, body, field) => {
		expectNamed(await send(emulator(), method, path, { body: json(body) }), field);
	});

	it.each([['[]'], ['[{"email":"a@b.co"}]'], ['"a@b.co"'], ['null'], ['42'], ['true']])(
		'POST /v1/clients refuses the JSON body %s: it must be an object',
		async (body) => {
			expectNamed(await send(emulator(), 'POST', '/v1/clients', { body }), 'body');
		},
	);

	it.each([
		['POST', '/v1/bots/bot_shop/messages', 'null'],
		['PUT', '/v1/clients/cl_ada/tags', '[]'],
		['PUT', '/v1/bots/bot_shop/scenarios/welcome/activate', '[]'],
		['PUT', '/v1/bots/bot_shop/scenarios/welcome/activate', '"x"'],
		['POST', '/_admin/bots', '"x"'],
		['POST', '/_admin/subscriptions', 'null'],
		['POST', '/_admin/clients', '[1,2]'],
	])('%s %s refuses the non-object JSON body %s', async (method, path, body) => {
		expectNamed(await send(emulator(), method, path, { body }), 'body');
	});

	it('refuses JSON nested deeper than 100 levels, in a body and in the custom_fields query', async () => {
		const e = emulator();
		const nested = (levels: number, email: string) =>
			`{"email":"${email}","custom_fields":{"a":${'['.repeat(levels - 2)}${']'.repeat(levels - 2)}}}`;
		expect(
			(await send(e, 'POST', '/v1/clients', { body: nested(100, 'deep100@example.com') })).status,
		).toBe(201);
		expectNamed(
			await send(e, 'POST', '/v1/clients', { body: nested(101, 'deep101@example.com') }),
			'body',
		);
		expectNamed(
			await send(e, 'POST', '/v1/clients', { body: nested(20_000, 'deep20k@example.com') }),
			'body',
		);
		expectNamed(
			await send(e, 'POST', '/_admin/events', {
				body: `{"event":"bot.error","data":{"bot_id":"b","x":${'['.repeat(5_000)}${']'.repeat(5_000)}}}`,
			}),
			'body',
		);
		// Brackets go unencoded, so the request line stays under Node's 16 KB header limit.
		const query = `{"a":${'['.repeat(7_000)}${']'.repeat(7_000)}}`;
		expectNamed(await send(e, 'GET', `/v1/clients?custom_fields=${query}`), 'custom_fields');
	});

	itKeepsServing(emulator);
});

// docs/service-assumptions.md: A27 (404 with the path, 405 with Allow, 401 before 404 under /v1).
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

// docs/service-assumptions.md: A2, A15 (query parameters are strict), A34 (admin API).
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

// ---- property-based: random requests over HTTP ----

type Template = { method: string; path: string; valid?: Record<string, unknown> };

/** Every route of both routers; `:x` segments are filled with ids. */
const TEMPLATES: Template[] = [
	{ method: 'GET', path: '/v1/bots' },
	{
		method: 'POST',
		path: '/v1/bots/:bot/messages',
		valid: { client_id: 'cl_ada', text: 'hi', type: 'text' },
	},
	{ method: 'GET', path: '/v1/bots/:bot/stats' },
	{ method: 'PUT', path: '/v1/bots/:bot/scenarios/:scenario/activate', valid: {} },
	{ method: 'GET', path: '/v1/clients' },
	{
		method: 'POST',
		path: '/v1/clients',
		valid: {
			email: 'prop@example.com',
			phone: '+4915100000000',
			first_name: 'P',
			last_name: 'Q',
			custom_fields: { a: { b: 1 } },
			tags: ['x'],
		},
	},
	{ method: 'GET', path: '/v1/clients/:client' },
	{ method: 'PUT', path: '/v1/clients/:client/tags', valid: { add: ['a'], remove: ['b'] } },
	{ method: 'GET', path: '/v1/clients/:client/messages' },
	{ method: 'GET', path: '/_admin/state' },
	{ method: 'POST', path: '/_admin/reset' },
	{ method: 'GET', path: '/_admin/config' },
	{ method: 'POST', path: '/_admin/config', valid: { rate_limit: 100_000 } },
	{ method: 'POST', path: '/_admin/keys' },
	{ method: 'DELETE', path: '/_admin/keys/:any' },
	{
		method: 'POST',
		path: '/_admin/bots',
		valid: { name: 'Prop bot', channels: ['telegram'], scenarios: ['s1'], status: 'active' },
	},
	{
		method: 'PATCH',
		path: '/_admin/bots/:bot',
		valid: { name: 'Renamed', status: 'active', channels: ['telegram', 'whatsapp'] },
	},
	{
		method: 'POST',
		path: '/_admin/clients',
		valid: { count: 3, tags: ['bulk'], email_domain: 'prop.test' },
	},
	{ method: 'GET', path: '/_admin/clients/:client' },
	{ method: 'GET', path: '/_admin/subscriptions' },
	{
		method: 'POST',
		path: '/_admin/subscriptions',
		valid: { url: 'http://127.0.0.1:1/hook', secret: 's', events: ['*'], active: true },
	},
	{ method: 'PATCH', path: '/_admin/subscriptions/:any', valid: { active: false } },
	{ method: 'DELETE', path: '/_admin/subscriptions/:any' },
	{ method: 'POST', path: '/_admin/subscriptions/:any/test' },
	{
		method: 'POST',
		path: '/_admin/inbound',
		valid: { bot_id: 'bot_shop', client_id: 'cl_ada', text: 'hello' },
	},
	{
		method: 'POST',
		path: '/_admin/events',
		valid: { event: 'client.updated', data: { client_id: 'cl_ada' } },
	},
	{ method: 'GET', path: '/_admin/deliveries' },
	{ method: 'GET', path: '/_admin/deliveries/:any' },
	{ method: 'POST', path: '/_admin/settle' },
	{ method: 'GET', path: '/_admin/dead-letter' },
	{ method: 'POST', path: '/_admin/dead-letter/:any/redeliver' },
	{ method: 'GET', path: '/_admin/sent-messages' },
	{ method: 'GET', path: '/_admin/requests' },
	{ method: 'GET', path: '/_admin/faults' },
	{ method: 'POST', path: '/_admin/faults', valid: { path: '/v1/bots', count: 1 } },
	{ method: 'DELETE', path: '/_admin/faults' },
	{ method: 'GET', path: '/_admin/clock' },
	{ method: 'POST', path: '/_admin/clock/advance', valid: { ms: 1 } },
];

/**
 * Requests that act on time or on the following runs (reset, faults, clock, config) are left
 * out: the other methods on those paths are still generated.
 */
const EXCLUDED = new Set([
	'POST /_admin/reset',
	'POST /_admin/faults',
	'POST /_admin/clock/advance',
	'POST /_admin/config',
]);
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'] as const;
const IDS = [
	'bot_shop',
	'bot_support',
	'bot_legacy',
	'cl_ada',
	'cl_grace',
	'welcome',
	'support',
	'order_status',
];

const encode = (s: string) => {
	try {
		return encodeURIComponent(s);
	} catch {
		return '%';
	}
};

const idArb = fc.oneof(
	{ weight: 5, arbitrary: fc.constantFrom(...IDS) },
	{ weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 16 }).map(encode) },
	{ weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
	{
		weight: 1,
		arbitrary: fc.constantFrom(
			'%',
			'%zz',
			'%E0%A4%A',
			'%ff',
			'%C3%28',
			'..',
			'.',
			'%2e%2e',
			'%2F',
			'',
			'%00',
		),
	},
);

/** Fills the template's `:x` segments in order. */
const fill = (path: string, ids: string[]) => ids.reduce((p, id) => p.replace(/:[a-z]+/, id), path);

const pathArb = fc.oneof(
	{
		weight: 8,
		arbitrary: fc
			.tuple(fc.constantFrom(...TEMPLATES), fc.array(idArb, { minLength: 2, maxLength: 2 }))
			.map(([t, ids]) => ({ template: t, path: fill(t.path, ids) })),
	},
	{
		weight: 2,
		arbitrary: fc
			.tuple(
				fc.constantFrom('/', '/v1/', '/_admin/', '/v1/bots/', '/v1/clients/'),
				fc.string({ unit: 'grapheme', maxLength: 24 }),
			)
			.map(([prefix, rest]) => ({ template: undefined, path: prefix + rest })),
	},
);

const queryKey = fc.oneof(
	fc.constantFrom(
		'limit',
		'offset',
		'email',
		'phone',
		'tags',
		'created_after',
		'custom_fields',
		'from',
		'to',
		'bot_id',
		'client_id',
		'event',
		'state',
	),
	fc.string({ maxLength: 8 }),
);
const queryValue = fc.oneof(
	fc.string({ maxLength: 16 }),
	fc.integer({ min: -5, max: 2_000 }).map(String),
	fc.constantFrom(
		'2026-01-01',
		'2026-02-30',
		'1.5',
		'abc',
		'',
		'+442071234567',
		'ada@example.com',
		'customer,vip',
	),
	fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
);
const knownQueryArb = fc
	.array(
		fc.tuple(
			fc.constantFrom(
				'limit',
				'offset',
				'email',
				'tags',
				'created_after',
				'from',
				'to',
				'custom_fields',
			),
			queryValue,
		),
		{
			minLength: 1,
			maxLength: 2,
		},
	)
	.map((pairs) => `?${new URLSearchParams(pairs).toString()}`);
const queryArb = fc.oneof(
	{ weight: 3, arbitrary: fc.constant('') },
	{
		weight: 4,
		arbitrary: fc
			.array(fc.tuple(queryKey, queryValue), { maxLength: 4 })
			.map((pairs) => (pairs.length ? `?${new URLSearchParams(pairs).toString()}` : '')),
	},
	{ weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 24 }).map((s) => `?${s}`) },
);

type Body = string | Uint8Array | undefined;

/** Values a field may be set to: other types, empty and odd strings, nested JSON. */
const fieldValue = fc.oneof(
	fc.string({ maxLength: 20 }),
	fc.constantFrom('', ' ', 'not a url', '%', '0', '-1', 'null', '2026-02-30', 'x'.repeat(5_000)),
	fc.integer(),
	fc.double(),
	fc.boolean(),
	fc.constant(null),
	fc.array(fc.oneof(fc.string({ maxLength: 8 }), fc.integer()), { maxLength: 3 }),
	fc.jsonValue({ maxDepth: 3 }),
);

/** A valid body, or one with a field changed, dropped or added, or its JSON cut short. */
function mutated(valid: Record<string, unknown>): fc.Arbitrary<string> {
	const keys = Object.keys(valid);
	const text = JSON.stringify(valid);
	const options: Array<fc.WeightedArbitrary<string>> = [
		{ weight: 2, arbitrary: fc.constant(text) },
		{
			weight: 1,
			arbitrary: fc
				.tuple(fc.string({ minLength: 1, maxLength: 10 }), fieldValue)
				.map(([k, v]) => JSON.stringify({ ...valid, [k]: v })),
		},
		{ weight: 1, arbitrary: fc.nat().map((n) => text.slice(0, n % text.length)) },
	];
	if (keys.length > 0) {
		options.push(
			{
				weight: 1,
				arbitrary: fc
					.constantFrom(...keys)
					.map((k) => JSON.stringify({ ...valid, [k]: undefined })),
			},
			{
				weight: 6,
				arbitrary: fc
					.tuple(fc.constantFrom(...keys), fieldValue)
					.map(([k, v]) => JSON.stringify({ ...valid, [k]: v })),
			},
		);
	}
	return fc.oneof(...options);
}

const bodyArb = (valid: Record<string, unknown> | undefined): fc.Arbitrary<Body> =>
	fc.oneof(
		{ weight: 2, arbitrary: fc.constant(undefined) },
		{ weight: 2, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
		{ weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 64 }) },
		{ weight: 1, arbitrary: fc.uint8Array({ maxLength: 256 }) },
		{ weight: 4, arbitrary: mutated(valid ?? { email: 'prop@example.com' }) },
		{ weight: 1, arbitrary: fc.constant('x'.repeat(70_000)) },
	);

/** Wild requests: any method, path, query, body, content type and authentication. */
const wildArb = pathArb.chain(({ template, path }) =>
	fc.record({
		method: template
			? fc.oneof(
					{ weight: 3, arbitrary: fc.constant(template.method) },
					fc.constantFrom(...METHODS),
				)
			: fc.constantFrom(...METHODS),
		path: fc.constant(path),
		query: queryArb,
		body: bodyArb(template?.valid),
		contentType: fc.constantFrom<string | null>(
			'application/json',
			'application/json',
			'application/json',
			'application/json',
			'application/json; charset=utf-8',
			'APPLICATION/JSON',
			'application/json; charset=latin1',
			'text/plain',
			'application/x-www-form-urlencoded',
			'multipart/form-data; boundary=x',
			'',
			null,
		),
		auth: fc.constantFrom<Auth>(
			'bearer',
			'bearer',
			'bearer',
			'bearer',
			'x-api-key',
			'none',
			'wrong',
			'mismatch',
		),
	}),
);

const ID_POOLS: Record<string, string[]> = {
	bot: ['bot_shop', 'bot_support', 'bot_legacy'],
	client: ['cl_ada', 'cl_grace', 'cl_linus'],
	scenario: ['welcome', 'support', 'order_status'],
	any: ['x', 'dlv_x', 'wh_x'],
};

/** Near-valid requests: a real route with real ids and credentials, and a (mutated) valid body. */
const nearValidTo = (templates: Template[]) =>
	fc.constantFrom(...templates).chain((t) =>
		fc.record({
			method: fc.constant(t.method),
			path: fc
				.tuple(
					...(t.path.match(/:[a-z]+/g) ?? []).map((name) =>
						fc.constantFrom(...ID_POOLS[name.slice(1)]),
					),
				)
				.map((ids) => fill(t.path, ids)),
			query: fc.oneof({ weight: 2, arbitrary: fc.constant('') }, knownQueryArb),
			body: t.valid ? mutated(t.valid) : fc.constant<Body>(undefined),
			contentType: fc.constant<string | null>('application/json'),
			auth: fc.constant<Auth>('bearer'),
		}),
	);

const requestArb = fc
	.oneof(wildArb, nearValidTo(TEMPLATES))
	.filter((r) => isHarmless(r.method, r.path + r.query, r.body));
type GeneratedRequest = typeof requestArb extends fc.Arbitrary<infer R> ? R : never;

/** Only the routes that take a body, with a valid body mutated field by field. */
const bodyRequestArb = nearValidTo(
	TEMPLATES.filter(
		(t) => t.valid && Object.keys(t.valid).length > 0 && !EXCLUDED.has(`${t.method} ${t.path}`),
	),
).filter((r) => isHarmless(r.method, r.path + r.query, r.body));

/** Keeps the run from resetting the emulator, injecting faults, moving its clock or calling out. */
function isHarmless(method: string, target: string, body: Body): boolean {
	let pathname: string;
	try {
		// As the client sends it, then as the server reads it.
		const sent = new URL(`http://emulator.local${target}`);
		pathname = new URL(`http://emulator.local${sent.pathname}`).pathname;
	} catch {
		return true;
	}
	if (EXCLUDED.has(`${method} ${pathname}`)) return false;
	if (typeof body !== 'string') return true;
	let parsed: unknown;
	try {
		parsed = JSON.parse(body);
	} catch {
		return true;
	}
	if (parsed === null || typeof parsed !== 'object') return true;
	const fields = parsed as Record<string, unknown>;
	// A large count would make the admin API create that many clients.
	if (pathname === '/_admin/clients' && typeof fields.count === 'number' && fields.count > 50)
		return false;
	// Webhook URLs that would be called: only a local port that refuses at once. Invalid ones are fine.
	if (pathname.startsWith('/_admin/subscriptions') && typeof fields.url === 'string') {
		const url = URL.parse(fields.url);
		if (!url || fields.url.startsWith('http://127.0.0.1:1/')) return true;
		if (url.protocol === 'https:') return false;
		return !(
			url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)
		);
	}
	return true;
}

// docs/service-assumptions.md: A2 (error body on every 4xx), A26, A27 — for any request at all.
describe('emulator: property — any request gets a JSON answer below 500', () => {
	const emulator = suite();

	/** The property: below 500, JSON (except HEAD), `success` false exactly on 4xx with code and message. */
	async function check(e: RunningEmulator, r: GeneratedRequest): Promise<void> {
		const withBody = r.method !== 'GET' && r.method !== 'HEAD' && r.body !== undefined;
		const answer = await send(e, r.method, r.path + r.query, {
			body: withBody ? r.body : undefined,
			contentType: r.contentType,
			auth: r.auth,
		});
		expect(answer.status).toBeLessThan(500);
		if (answer.status === 405) expect(answer.headers.get('allow')).toEqual(expect.any(String));
		if (r.method === 'HEAD') return;
		expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
		const parsed = JSON.parse(answer.text) as {
			success: boolean;
			error?: { code: unknown; message: unknown };
		};
		expect(parsed.success).toBe(answer.status < 400);
		if (answer.status >= 400) {
			expect(typeof parsed.error?.code).toBe('string');
			expect(typeof parsed.error?.message).toBe('string');
		}
	}

	it('answers every generated request with < 500 and a JSON error body on 4xx', async () => {
		const e = emulator();
		await fc.assert(
			fc.asyncProperty(requestArb, (r) => check(e, r)),
			{ numRuns: 300 },
		);
		await expectServing(e);
	});

	it('validates every mutated body of every route that takes one without failing', async () => {
		const e = emulator();
		await fc.assert(
			fc.asyncProperty(bodyRequestArb, (r) => check(e, r)),
			{ numRuns: 400 },
		);
		await expectServing(e);
	});
});

// ---- property-based: garbage over raw TCP ----

/** Writes raw bytes to the emulator's port and reads until the server closes (or 2 s pass). */
function exchange(e: RunningEmulator, data: Uint8Array): Promise<string> {
	const { hostname, port } = new URL(e.baseUrl);
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		const socket = connect({ host: hostname, port: Number(port) }, () => socket.end(data));
		socket.setTimeout(2_000, () => {
			socket.destroy();
			reject(
				new Error(
					`no answer within 2 s to ${JSON.stringify(Buffer.from(data).toString('latin1'))}`,
				),
			);
		});
		socket.on('data', (c: Buffer) => chunks.push(c));
		socket.on('error', reject);
		socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
	});
}

const noNewline = (bytes: Uint8Array) => bytes.map((b) => (b === 0x0a || b === 0x0d ? 0x20 : b));

/** Request lines that cannot be a valid HTTP/1.x request line. */
const garbageLine = fc
	.oneof(
		fc.uint8Array({ minLength: 1, maxLength: 80 }).map(noNewline),
		fc
			.tuple(
				fc.constantFrom(
					'get',
					'G E T',
					'GET',
					'POST',
					'BREW',
					'GET\t/',
					'\u00ff\u00fe',
					'{"json":1}',
					'PUT /v1/bots',
				),
				fc.string({ maxLength: 20 }).map((s) => s.replace(/[\r\n]/g, ' ')),
				fc.constantFrom(
					'HTTP/9.9',
					'HTTP/1.1x',
					'HTTPS/1.1',
					'http/1.1',
					'HTTP/',
					'',
					'HTTP/1.1 extra',
				),
			)
			.map(([method, target, version]) =>
				new TextEncoder().encode(`${method} /${target} ${version}`),
			),
	)
	.filter((bytes) => !/^[A-Z]+ \S+ HTTP\/1\.[01]$/.test(Buffer.from(bytes).toString('latin1')));

// docs/service-assumptions.md: A2 — even a request Node cannot parse gets the JSON error body.
describe('emulator: property — garbage request lines over TCP', () => {
	const emulator = suite();

	it('answers each with 400 and a JSON body, and keeps serving', async () => {
		const e = emulator();
		await fc.assert(
			fc.asyncProperty(garbageLine, async (line) => {
				const data = Buffer.concat([Buffer.from(line), Buffer.from('\r\n\r\n')]);
				const answer = await exchange(e, data);
				expect(answer).toMatch(/^HTTP\/1\.1 400 /);
				const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as ErrorBody;
				expect(body).toMatchObject({
					success: false,
					error: { code: 'bad_request', message: expect.any(String) },
				});
			}),
			{ numRuns: 100 },
		);
		await expectServing(e);
	});

	it('answers headers over the size limit with 431 and a JSON body', async () => {
		const e = emulator();
		const answer = await exchange(
			e,
			Buffer.from(`GET /v1/bots HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
		);
		expect(answer).toMatch(/^HTTP\/1\.1 431 /);
		expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({
			success: false,
			error: { code: 'headers_too_large' },
		});
		await expectServing(e);
	});
});
