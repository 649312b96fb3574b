/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: files and a local server, never loaded by n8n */
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { startStudio, type RunningStudio } from '../../runtime/studio/server/server';

/**
 * The folder the studio was started for: files in it are listed, opened, saved and created (with
 * their folders) on first save; nothing outside it, however spelled or linked.
 */

const base = mkdtempSync(path.join(tmpdir(), 'mb-studio-folder-'));
const root = path.join(base, 'bots');
const outsider = path.join(base, 'outside.json');
const pageDir = path.join(base, 'page');
let studio: RunningStudio;

beforeAll(async () => {
	mkdirSync(pageDir);
	mkdirSync(path.join(root, 'shop'), { recursive: true });
	writeFileSync(path.join(pageDir, 'index.html'), '<!doctype html><title>studio</title>');
	writeFileSync(path.join(root, 'faq.json'), '{ "id": "faq" }\n');
	writeFileSync(path.join(root, 'faq.layout.json'), '{}\n');
	writeFileSync(path.join(root, 'shop', 'pizza.json'), '{ "id": "pizza" }\n');
	writeFileSync(outsider, '{ "id": "outside" }\n');
	symlinkSync(base, path.join(root, 'up'));
	studio = await startStudio({ files: [], root, pageDir });
});
afterAll(async () => {
	await studio.close();
	rmSync(base, { recursive: true, force: true });
});

function call(
	method: string,
	route: string,
	body?: string,
): Promise<{ status: number; json: Record<string, unknown> }> {
	return new Promise((resolve, reject) => {
		const req = request(
			new URL(route, studio.origin),
			{ method, headers: { 'x-studio-token': studio.token } },
			(res) => {
				let text = '';
				res.on('data', (chunk: Buffer) => (text += chunk.toString()));
				res.on('end', () =>
					resolve({ status: res.statusCode ?? 0, json: JSON.parse(text || 'null') }),
				);
			},
		);
		req.on('error', reject);
		req.end(body);
	});
}
const q = (file: string) => encodeURIComponent(file);

test('lists the scenario files in the folder, not the layouts kept beside them', async () => {
	const answer = await call('GET', '/api/files');
	expect(answer.json).toEqual({ root, files: ['faq.json', path.join('shop', 'pizza.json')] });
});

test('a path that does not exist yet reads as missing, and is created with its folders on first save', async () => {
	const file = path.join('new', 'deeper', 'pizza-shop.json');
	const read = await call('GET', `/api/file?path=${q(file)}`);
	expect(read).toEqual({ status: 200, json: { path: path.join(root, file) } });
	const saved = await call('PUT', `/api/file?path=${q(file)}`, '{ "id": "pizza-shop" }\n');
	expect(saved.status).toBe(200);
	expect(readFileSync(path.join(root, file), 'utf8')).toBe('{ "id": "pizza-shop" }\n');
	const layout = await call('PUT', `/api/layout?path=${q(file)}`, '{ "welcome": [1, 2] }');
	expect(layout.status).toBe(200);
	expect(readFileSync(path.join(root, 'new', 'deeper', 'pizza-shop.layout.json'), 'utf8')).toBe(
		'{ "welcome": [1, 2] }',
	);
	expect((await call('GET', `/api/layout?path=${q(file)}`)).json.text).toBe(
		'{ "welcome": [1, 2] }',
	);
});

test.each([
	['a file above the folder', () => '../outside.json'],
	['an absolute path elsewhere', () => outsider],
	['a new file through a link that leads out', () => path.join('up', 'made-by-link.json')],
	['a new folder through a link that leads out', () => path.join('up', 'x', 'y.json')],
	['a file that is not JSON', () => 'notes.txt'],
	['the folder itself', () => '.json/..'],
])('refuses %s, and writes nothing', async (_, file) => {
	const answer = await call('PUT', `/api/file?path=${q(file())}`, '{"id":"x"}');
	expect(answer.status).toBe(403);
	expect(answer.json.error).toMatch(/only the files it was opened on and .json files inside/);
	expect(readFileSync(outsider, 'utf8')).toBe('{ "id": "outside" }\n');
	expect(existsSync(path.join(base, 'made-by-link.json'))).toBe(false);
	expect(existsSync(path.join(base, 'x'))).toBe(false);
	expect((await call('GET', `/api/file?path=${q(file())}`)).status).toBe(403);
});
