/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test tooling: runs the package's bin as a clone would, never loaded by n8n */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

// A clone right after `npm install`: the sources and node_modules, no dist/ (nothing built yet).
// `npx messaging-bot-scenario` runs package.json's bin there.
describe('messaging-bot-scenario in a clone with nothing built', () => {
	let clone: string;
	beforeAll(() => {
		clone = mkdtempSync(path.join(tmpdir(), 'mb-clone-'));
		for (const entry of ['runtime', 'node_modules', 'examples', 'scripts', 'tsconfig.json'])
			symlinkSync(path.join(root, entry), path.join(clone, entry));
		copyFileSync(path.join(root, 'package.json'), path.join(clone, 'package.json'));
		mkdirSync(path.join(clone, 'bin'));
		copyFileSync(
			path.join(root, 'bin/messaging-bot-scenario.js'),
			path.join(clone, 'bin/messaging-bot-scenario.js'),
		);
	});
	afterAll(() => rmSync(clone, { recursive: true, force: true }));

	it("runs package.json's bin from the source", () => {
		const manifest = JSON.parse(readFileSync(path.join(clone, 'package.json'), 'utf8')) as {
			bin: Record<string, string>;
		};
		const bin = path.join(clone, manifest.bin['messaging-bot-scenario']);
		const out = execFileSync(
			process.execPath,
			[bin, 'validate', 'examples/scenarios/order-status.json'],
			{ cwd: clone, encoding: 'utf8' },
		);
		expect(out).toBe('ok examples/scenarios/order-status.json: order-status v2, 7 states\n');
	}, 60_000);
});
