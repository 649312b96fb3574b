/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test tooling: packs the package and runs n8n's scanner, never loaded by n8n */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

import { readAllowList, type Allowed, type Finding } from '../../scripts/lib/scan';

const root = path.resolve(__dirname, '../..');

interface Report {
	tarball: Finding[];
	source: Finding[];
	unexpected: Finding[];
	unexpectedInSource: Finding[];
	unused: Allowed[];
}

// n8n's own scanner on the tarball `npm publish` would upload and on the sources
// (`npm run scan` by hand).
describe("n8n's scanner on the packed package and the sources", () => {
	let report: Report;

	beforeAll(() => {
		if (!existsSync(path.join(root, 'dist')))
			throw new Error('dist/ is missing: run `npm run build` first');
		// Its own process: the scanner is an ES module with its own eslint.
		// It exits with 1 when something is not allowed; the report says what.
		const run = spawnSync(path.join(root, 'node_modules/.bin/tsx'), ['scripts/scan.ts', '--json'], {
			cwd: root,
			// Not jest's NODE_ENV=test: n8n's lint rules then check file names as their own tests do.
			env: { ...process.env, NODE_ENV: 'production' },
			encoding: 'utf8',
			maxBuffer: 64 * 1024 * 1024,
		});
		if (!run.stdout.startsWith('{')) throw new Error(`npm run scan failed: ${run.stderr}`);
		report = JSON.parse(run.stdout) as Report;
	}, 300_000);

	const findingsIn = (file: string) => report.tarball.filter((f) => f.file === file);

	it('finds nothing that scanner-allowlist.json does not list with its reason', () => {
		expect(report.unexpected).toEqual([]);
	});

	it('has no allow-list entry left that matches nothing', () => {
		expect(report.unused).toEqual([]);
	});

	it('finds nothing in the node and credential sources, and allows nothing there', () => {
		expect(report.source).toEqual([]);
		// Allowed only in what the package ships besides them: dist/ and the CLI's bin launcher.
		const shipped = (file: string) =>
			file.startsWith('dist/') || file === 'bin/messaging-bot-scenario.js';
		expect(readAllowList().filter((a) => !shipped(a.file))).toEqual([]);
	});

	it('finds nothing in any node file, the credentials or the shared budget, and allows nothing there', () => {
		const clean = [
			'dist/nodes/MessagingBot/MessagingBot.node.js',
			'dist/nodes/MessagingBotTrigger/MessagingBotTrigger.node.js',
			'dist/nodes/MessagingBotPortTrigger/MessagingBotPortTrigger.node.js',
			'dist/nodes/MessagingBotScenario/MessagingBotScenario.node.js',
			'dist/credentials/MessagingBotApi.credentials.js',
			'dist/credentials/MessagingBotWebhookApi.credentials.js',
			'dist/credentials/MessagingBotRedisApi.credentials.js',
			'dist/lib/budget.js',
		];
		for (const file of clean)
			expect({ file, findings: findingsIn(file) }).toEqual({ file, findings: [] });
		expect(readAllowList().filter((a) => clean.includes(a.file))).toEqual([]);
	});

	it("finds in the Own Port Trigger's listener only its HTTP server", () => {
		expect(findingsIn('dist/lib/port-listener.js').map((f) => f.message)).toEqual([
			expect.stringContaining("'node:http'"),
		]);
	});

	it('does reach the files it must scan (the stores and the CLI have findings)', () => {
		expect(findingsIn('dist/lib/sqlite-store.js').length).toBeGreaterThan(0);
		expect(findingsIn('dist/cli/scenario.js').length).toBeGreaterThan(0);
	});
});
