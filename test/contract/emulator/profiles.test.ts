/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test tooling: spawns the emulator's CLI */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';

import { admin, call, useEmulator } from '../../helpers/emulator';

const tsx = path.join(__dirname, '../../../node_modules/.bin/tsx');
const cli = path.join(__dirname, '../../emulator/cli.ts');

// docs/service-assumptions.md: each "variant profile answers …" sentence, over HTTP.
describe('emulator: the variant profile', () => {
	const emulator = useEmulator({ rateLimit: 100_000 });
	beforeAll(async () => {
		expect((await admin(emulator(), 'GET', '/profile')).body.data).toEqual({ profile: 'default' });
		const r = await call(emulator(), 'PUT', '/_admin/profile', { body: { profile: 'variant' } });
		expect(r.body.data).toEqual({ profile: 'variant' });
	});
	beforeEach(async () => {
		await admin(emulator(), 'POST', '/reset');
	});

	it('keeps the profile over a reset, and refuses an unknown one', async () => {
		expect((await admin(emulator(), 'GET', '/profile')).body.data).toEqual({ profile: 'variant' });
		const r = await call(emulator(), 'PUT', '/_admin/profile', { body: { profile: 'odd' } });
		expect(r.status).toBe(400);
	});

	it('A12: a sent message is 204 with no body', async () => {
		const r = await call(emulator(), 'POST', '/bots/bot_shop/messages', {
			body: { client_id: 'cl_ada', text: 'hi' },
		});
		expect([r.status, r.text]).toEqual([204, '']);
		const sent = (await admin<unknown[]>(emulator(), 'GET', '/sent-messages')).body.data;
		expect(sent).toHaveLength(1);
	});

	it('A14: an activation is {success: true} and a request id, no data', async () => {
		const r = await call(emulator(), 'PUT', '/bots/bot_shop/scenarios/order_status/activate');
		expect(r.status).toBe(200);
		expect(r.body).toEqual({ success: true, request_id: expect.stringMatching(/^req_/) });
	});

	it('A13: statistics come without a success member, with fields of their own', async () => {
		const r = await call(emulator(), 'GET', '/bots/bot_shop/stats');
		expect(r.body).not.toHaveProperty('success');
		expect(r.body.data).toMatchObject({ new_clients: 1, timezone: 'UTC' });
	});

	it('A18: created and existing are both 200, told apart by a created flag', async () => {
		const body = { email: 'new@example.com' };
		const first = await call<{ id: string }>(emulator(), 'POST', '/clients', { body });
		const again = await call<{ id: string }>(emulator(), 'POST', '/clients', { body });
		expect([first.status, again.status]).toEqual([200, 200]);
		expect([first.body, again.body]).toMatchObject([{ created: true }, { created: false }]);
		expect(again.body.data.id).toBe(first.body.data.id);
	});

	it('A21: a tag update is 201 with the record and fields of its own', async () => {
		const r = await call(emulator(), 'PUT', '/clients/cl_grace/tags', { body: { add: ['vip'] } });
		expect(r.status).toBe(201);
		expect(r.body.data).toMatchObject({ id: 'cl_grace', tags: ['lead', 'vip'], source: 'api' });
	});

	it('A24: history items as id, sender and created_at; the full record as direction in/out and sent_at', async () => {
		const page = await call<Array<Record<string, unknown>>>(
			emulator(),
			'GET',
			'/clients/cl_ada/messages',
		);
		expect(page.body.data.map((m) => [m.id, m.sender, typeof m.created_at])).toEqual([
			['msg_seed_1', 'client', 'string'],
			['msg_seed_2', 'bot', 'string'],
		]);
		expect(page.body.data[0]).not.toHaveProperty('message_id');
		const full = await call<{ messages: Array<Record<string, unknown>> }>(
			emulator(),
			'GET',
			'/clients/cl_ada',
		);
		expect(full.body.data.messages.map((m) => [m.id, m.direction, typeof m.sent_at])).toEqual([
			['msg_seed_1', 'in', 'string'],
			['msg_seed_2', 'out', 'string'],
		]);
	});

	it('A39: a client message is listed only 1.5 s after it was written; a bot reply at once', async () => {
		const listed = async () =>
			(
				await call<Array<Record<string, unknown>>>(emulator(), 'GET', '/clients/cl_grace/messages')
			).body.data.map((m) => [m.sender, m.text]);
		await admin(emulator(), 'POST', '/inbound', {
			bot_id: 'bot_shop',
			client_id: 'cl_grace',
			text: 'hello',
		});
		await call(emulator(), 'POST', '/bots/bot_shop/messages', {
			body: { client_id: 'cl_grace', text: 'hi Grace' },
		});
		expect(await listed()).toEqual([['bot', 'hi Grace']]);
		await admin(emulator(), 'POST', '/clock/advance', { ms: 1400 });
		expect(await listed()).toEqual([['bot', 'hi Grace']]);
		await admin(emulator(), 'POST', '/clock/advance', { ms: 200 });
		expect(await listed()).toEqual([
			['client', 'hello'],
			['bot', 'hi Grace'],
		]);
	});

	it('A2: errors as plain text, an empty 401, a problem document for 404 and an HTML 5xx', async () => {
		const invalid = await call(emulator(), 'GET', '/clients/cl_nobody');
		expect([invalid.status, invalid.headers.get('content-type'), invalid.text]).toEqual([
			400,
			'text/plain; charset=utf-8',
			'Invalid client_id',
		]);
		const unauthorized = await call(emulator(), 'GET', '/bots', { key: 'mb_test_wrong' });
		expect([unauthorized.status, unauthorized.text]).toEqual([401, '']);
		expect(unauthorized.headers.get('www-authenticate')).toBe('Bearer');
		const missing = await call(emulator(), 'GET', '/bots/bot_nope/stats');
		expect(missing.headers.get('content-type')).toBe('application/problem+json');
		expect(missing.body).toMatchObject({ status: 404, detail: 'Bot not found' });
		await admin(emulator(), 'POST', '/faults', { path: '/v1/bots' });
		const failed = await call(emulator(), 'GET', '/bots');
		expect(failed.status).toBe(500);
		expect(failed.text).toMatch(/^<!DOCTYPE html>/);
	});

	it('keeps the admin API in JSON', async () => {
		const r = await admin(emulator(), 'GET', '/clients/cl_nobody');
		expect(r.body).toMatchObject({
			success: false,
			error: { message: expect.stringMatching(/^Invalid client_id: no client "cl_nobody"/) },
		});
	});
});

describe('emulator CLI: --profile', () => {
	it('starts in the variant profile with --profile variant', async () => {
		const child = spawn(tsx, [cli, '--port', '0', '--profile', 'variant'], {
			stdio: ['ignore', 'pipe', 'inherit'],
		});
		try {
			const line = await new Promise<string>((resolve, reject) => {
				let out = '';
				child.stdout.on('data', (chunk: Buffer) => {
					out += chunk.toString();
					if (out.includes('\n')) resolve(out.split('\n')[0]);
				});
				child.on('exit', (code) => reject(new Error(`emulator exited with ${code}`)));
			});
			const started = JSON.parse(line) as { adminUrl: string; profile: string };
			expect(started.profile).toBe('variant');
			const r = await fetch(`${started.adminUrl}/profile`);
			expect(await r.json()).toEqual({ success: true, data: { profile: 'variant' } });
		} finally {
			child.kill('SIGTERM');
		}
	});

	it('refuses an unknown profile', () => {
		const r = spawnSync(tsx, [cli, '--profile', 'odd'], { encoding: 'utf8' });
		expect(r.status).toBe(1);
		expect(r.stderr).toContain('--profile must be one of default, variant, got "odd"');
	});
});
