/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: files and a local server, never loaded by n8n */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { startStudio, type RunningStudio } from '../../runtime/studio/server/server';

/** The studio server's rules without a browser: a token for every API call, writes to the opened file only. */

const dir = mkdtempSync(path.join(tmpdir(), 'mb-studio-'));
const pageDir = path.join(dir, 'page');
const opened = path.join(dir, 'bot.json');
const other = path.join(dir, 'other.json');
const original = '{ "id": "bot" }\n';
let studio: RunningStudio;

beforeAll(async () => {
	mkdirSync(pageDir);
	writeFileSync(path.join(pageDir, 'index.html'), '<!doctype html><title>studio</title>');
	writeFileSync(opened, original);
	writeFileSync(other, original);
	symlinkSync(other, path.join(dir, 'link.json'));
	studio = await startStudio({ files: [opened], pageDir });
});
afterAll(async () => {
	await studio.close();
	rmSync(dir, { recursive: true, force: true });
});

type Answer = { status: number; body: string };

function send(
	method: string,
	url: string,
	options: { token?: string; body?: string; host?: string } = {},
): Promise<Answer> {
	const target = new URL(url, studio.origin);
	return new Promise((resolve, reject) => {
		const req = request(
			target,
			{
				method,
				headers: {
					...(options.token ? { 'x-studio-token': options.token } : {}),
					...(options.host ? { host: options.host } : {}),
				},
			},
			(res) => {
				let body = '';
				res.on('data', (chunk: Buffer) => (body += chunk.toString()));
				res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
			},
		);
		req.on('error', reject);
		req.end(options.body);
	});
}

const put = (file: string, body: string, token?: string) =>
	send('PUT', `/api/file?path=${encodeURIComponent(file)}`, { token, body });

test('binds 127.0.0.1 and puts its token in the page address', () => {
	expect(studio.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
	expect(studio.url).toBe(`${studio.origin}/?token=${studio.token}`);
	expect(studio.token.length).toBeGreaterThanOrEqual(32);
});

test('serves the page without a token, the API only with it', async () => {
	expect((await send('GET', '/')).status).toBe(200);
	expect((await send('GET', '/api/session')).status).toBe(401);
	expect((await send('GET', '/api/session', { token: 'wrong' })).status).toBe(401);
	const session = await send('GET', '/api/session', { token: studio.token });
	expect(JSON.parse(session.body)).toEqual({ files: [opened], traffic: false, versions: false });
});

test('refuses a write without the token, or with a wrong one, and the file is unchanged', async () => {
	expect((await put(opened, '{"id":"changed"}')).status).toBe(401);
	expect((await put(opened, '{"id":"changed"}', `${studio.token}x`)).status).toBe(401);
	expect(readFileSync(opened, 'utf8')).toBe(original);
});

test('writes the opened file, named however the path is spelled', async () => {
	const spelled = path.join(dir, 'page', '..', 'bot.json');
	const answer = await put(spelled, '{ "id": "bot", "version": 2 }\n', studio.token);
	expect(answer.status).toBe(200);
	expect(readFileSync(opened, 'utf8')).toBe('{ "id": "bot", "version": 2 }\n');
});

test.each([
	['another file in the same folder', () => other],
	['a link to another file', () => path.join(dir, 'link.json')],
	['a new file', () => path.join(dir, 'new.json')],
	['a relative path', () => 'bot.json'],
	['an empty path', () => ''],
])('refuses to write %s, even with the token', async (_, file) => {
	const answer = await put(file(), '{"id":"x"}', studio.token);
	expect(answer.status).toBe(403);
	expect(JSON.parse(answer.body).error).toMatch(/only the files it was opened on/);
	expect(readFileSync(other, 'utf8')).toBe(original);
});

test('refuses to read a file it was not opened on', async () => {
	const answer = await send('GET', `/api/file?path=${encodeURIComponent(other)}`, {
		token: studio.token,
	});
	expect(answer.status).toBe(403);
});

test('refuses content that is not JSON, and keeps the file', async () => {
	const before = readFileSync(opened, 'utf8');
	const answer = await put(opened, '{ not json', studio.token);
	expect(answer.status).toBe(400);
	expect(readFileSync(opened, 'utf8')).toBe(before);
});

test('answers only under its own address (no other host name pointed at it)', async () => {
	const answer = await send('GET', '/api/session', {
		token: studio.token,
		host: 'evil.example:80',
	});
	expect(answer.status).toBe(403);
});

test('traffic and funnel: nothing without a state store', async () => {
	for (const route of ['/api/traffic', '/api/funnel'])
		expect(await send('GET', route, { token: studio.token })).toEqual({ status: 204, body: '' });
});

test('funnel: the days checked as traffic checks them, to the funnel reader (not the traffic one)', async () => {
	const asked: unknown[] = [];
	const withStore = await startStudio({
		files: [opened],
		pageDir,
		traffic: async () => ({ wrong: 'reader' }),
		funnel: async (query) => {
			asked.push(query);
			return { versions: [] };
		},
	});
	try {
		const get = (query: string) =>
			send('GET', `${withStore.origin}/api/funnel?${query}`, { token: withStore.token });
		expect(await get('scenario=bot&from=2026-01-01&to=2026-01-07')).toEqual({
			status: 200,
			body: JSON.stringify({ versions: [] }),
		});
		expect(asked).toEqual([{ scenario: 'bot', from: '2026-01-01', to: '2026-01-07' }]);
		expect((await get('scenario=bot&to=tomorrow')).status).toBe(400);
		expect(await send('GET', `${withStore.origin}/api/funnel?scenario=bot`)).toMatchObject({
			status: 401,
		});
	} finally {
		await withStore.close();
	}
});

test('traffic: the scenario and the days the page asks for, checked, to the store reader', async () => {
	const asked: unknown[] = [];
	const withStore = await startStudio({
		files: [opened],
		pageDir,
		traffic: async (query) => {
			asked.push(query);
			return { states: { welcome: { entered: 3, dropOff: 1 } }, edges: [] };
		},
	});
	try {
		const get = (query: string) =>
			send('GET', `${withStore.origin}/api/traffic?${query}`, { token: withStore.token });
		const answer = await get('scenario=bot&from=2026-01-01&to=2026-01-07');
		expect(answer.status).toBe(200);
		expect(JSON.parse(answer.body)).toEqual({
			states: { welcome: { entered: 3, dropOff: 1 } },
			edges: [],
		});
		expect(asked).toEqual([{ scenario: 'bot', from: '2026-01-01', to: '2026-01-07' }]);
		expect(await get('scenario=bot&from=yesterday')).toEqual({
			status: 400,
			body: JSON.stringify({ error: 'From is not a day (YYYY-MM-DD): "yesterday"' }),
		});
		expect((await get('scenario=bot&from=2026-01-08&to=2026-01-07')).status).toBe(400);
		expect((await get('from=2026-01-01')).status).toBe(400);
		expect(asked).toHaveLength(1);
		const session = await send('GET', `${withStore.origin}/api/session`, {
			token: withStore.token,
		});
		expect(JSON.parse(session.body)).toMatchObject({ traffic: true });
	} finally {
		await withStore.close();
	}
});
