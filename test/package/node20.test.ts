/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test tooling: runs the built files under another Node.js, never loaded by n8n */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { systemNode20 } from './system-node';

const root = path.resolve(__dirname, '../..');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
	n8n: { nodes: string[]; credentials: string[] };
};

/** Runs `script` under the machine's Node.js 20 from the package root; returns its JSON output. */
function underNode20(script: string): unknown {
	const out = execFileSync(systemNode20(), ['-e', script], { cwd: root, encoding: 'utf8' });
	return JSON.parse(out);
}

// n8n on Node.js 20 (or 22 before 22.13) has no node:sqlite: every node must load all the same,
// and only choosing the SQLite store fails, saying what to do.
describe('the built package on Node.js 20', () => {
	beforeAll(() => {
		if (!existsSync(path.join(root, 'dist')))
			throw new Error('dist/ is missing: run `npm run build` first');
	});

	it('is the Node.js it claims to be', () => {
		expect(underNode20('process.stdout.write(JSON.stringify(process.versions.node))')).toMatch(
			/^20\./,
		);
	});

	it('loads every node and credential file, and describes each', () => {
		const files = [...manifest.n8n.nodes, ...manifest.n8n.credentials];
		const loaded = underNode20(`
			const out = [];
			for (const file of ${JSON.stringify(files)}) {
				const mod = require(require('path').resolve(file));
				for (const [name, Cls] of Object.entries(mod)) {
					const d = new Cls().description ?? new Cls();
					out.push({ file, name: d.name, props: d.properties.length });
				}
			}
			process.stdout.write(JSON.stringify(out));
		`) as Array<{ file: string; name: string; props: number }>;
		expect(loaded.map((l) => l.file)).toEqual(files);
		expect(loaded.every((l) => l.props > 0)).toBe(true);
		expect(loaded.map((l) => l.name)).toEqual(
			expect.arrayContaining(['messagingBotTrigger', 'messagingBotScenario']),
		);
	});

	it('refuses the SQLite store with the Node.js it needs and the store to choose instead', () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'mb-node20-'));
		try {
			const result = underNode20(`
				const { sharedSqliteStore } = require('./dist/lib/sqlite-store.js');
				try {
					sharedSqliteStore(${JSON.stringify(path.join(dir, 'state.sqlite'))});
					process.stdout.write(JSON.stringify({ opened: true }));
				} catch (e) {
					process.stdout.write(JSON.stringify({ name: e.name, message: e.message }));
				}
			`);
			expect(result).toEqual({
				name: 'StateStoreError',
				message: expect.stringContaining('needs Node.js 22.13 or later'),
			});
			expect((result as { message: string }).message).toContain(
				'Choose "Redis (for Queue Mode)" as the Storage',
			);
			expect((result as { message: string }).message).toMatch(/runs on Node\.js 20\.\d+\.\d+/);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
