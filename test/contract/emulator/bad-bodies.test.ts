import { send, json, expectJsonError, expectNamed, suite, itKeepsServing } from './raw-http';

// docs/service-assumptions.md#a2 (error body), #a26 (bodies: JSON only, 64 KB, 415, unknown fields).
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
