/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test tooling: packs and installs the package, never loaded by n8n */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, mkdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { admin, useEmulator } from '../helpers/emulator';
import { GRACE_TRACKS_AN_ORDER } from '../scenarios/cli-fixture';
import { systemNode20 } from './system-node';

const root = path.resolve(__dirname, '../..');

// The package as users get it: packed, installed into an empty folder that holds only
// n8n-workflow (which n8n provides), and every node and credential loaded from there.
describe('published package', () => {
	let dir: string;
	let installed: string;
	let manifest: {
		bin: Record<string, string>;
		dependencies?: Record<string, string>;
		n8n: { nodes: string[]; credentials: string[] };
	};

	beforeAll(() => {
		if (!existsSync(path.join(root, 'dist')))
			throw new Error('dist/ is missing: run `npm run build` first');
		dir = mkdtempSync(path.join(tmpdir(), 'mb-pack-'));
		const packed = JSON.parse(
			execFileSync('npm', ['pack', '--json', '--pack-destination', dir], {
				cwd: root,
				encoding: 'utf8',
			}),
		) as Array<{ filename: string; files: Array<{ path: string }> }>;
		const tarball = path.join(dir, packed[0].filename);
		const app = path.join(dir, 'app');
		mkdirSync(path.join(app, 'node_modules'), { recursive: true });
		execFileSync('npm', ['init', '-y'], { cwd: app, stdio: 'ignore' });
		execFileSync(
			'npm',
			['install', '--no-audit', '--no-fund', '--legacy-peer-deps', '--offline', tarball],
			{ cwd: app, stdio: 'pipe' },
		);
		symlinkSync(
			path.join(root, 'node_modules/n8n-workflow'),
			path.join(app, 'node_modules/n8n-workflow'),
		);
		installed = path.join(app, 'node_modules/n8n-nodes-messaging-bot');
		manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8'));
	}, 120_000);

	afterAll(() => rmSync(dir, { recursive: true, force: true }));
	const emulator = useEmulator();

	// The machine's Node 20 (package.json's lowest): the CLI's HTTP client must run on it.
	it("runs the installed CLI's chat against the service on Node.js 20", async () => {
		const e = emulator();
		// The command as npm links it: package.json's bin, wherever that points.
		const cli = path.join(installed, manifest.bin['messaging-bot-scenario']);
		const args = ['chat', path.join(root, 'examples/scenarios/order-status.json')];
		args.push('--base-url', e.baseUrl, '--api-key', e.apiKey, '--bot', 'bot_shop');
		const out = await new Promise<string>((resolve, reject) => {
			const child = execFile(
				systemNode20(),
				[cli, ...args, '--client', 'cl_grace'],
				(error, stdout, stderr) =>
					error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
			);
			child.stdin?.end('hi\ntrack my order\n');
		});
		expect(out).toContain(`through ${e.baseUrl} (bot bot_shop)`);
		const { body } = await admin<Array<{ text: string }>>(
			e,
			'GET',
			'/sent-messages?client_id=cl_grace',
		);
		expect(body.data.map((m) => m.text)).toEqual(GRACE_TRACKS_AN_ORDER);
	}, 30_000);

	it('declares no runtime dependencies', () => {
		expect(manifest.dependencies ?? {}).toEqual({});
	});

	it('installs only n8n-workflow beside it', () => {
		const modules = execFileSync('ls', [path.join(dir, 'app/node_modules')], { encoding: 'utf8' })
			.trim()
			.split('\n');
		expect(modules.sort()).toEqual(['n8n-nodes-messaging-bot', 'n8n-workflow']);
	});

	it('loads every node and credential file it declares, with nothing else installed', () => {
		const files = [...manifest.n8n.nodes, ...manifest.n8n.credentials];
		expect(manifest.n8n.nodes.length).toBeGreaterThan(0);
		// A fresh Node process, so nothing from this test run's module cache can help.
		const script = `
			const path = require('path');
			const out = [];
			for (const file of ${JSON.stringify(files)}) {
				const mod = require(path.join(${JSON.stringify(installed)}, file));
				for (const [name, Cls] of Object.entries(mod)) {
					const instance = new Cls();
					const d = instance.description;
					out.push(d ? { file, name, type: d.name, tool: d.usableAsTool === true, props: d.properties.length } : { file, name, type: instance.name, props: instance.properties.length });
				}
			}
			process.stdout.write(JSON.stringify(out));
		`;
		const loaded = JSON.parse(
			execFileSync(process.execPath, ['-e', script], {
				cwd: path.join(dir, 'app'),
				encoding: 'utf8',
			}),
		) as Array<{ file: string; type: string; props: number; tool?: boolean }>;
		expect(loaded.map((l) => l.file)).toEqual(files);
		expect(loaded.every((l) => l.props > 0)).toBe(true);
		expect(loaded.find((l) => l.type === 'messagingBot')).toMatchObject({ tool: true });
		expect(loaded.find((l) => l.type === 'messagingBotApi')).toBeDefined();
	});

	it('ships the icons and codex files next to the nodes', () => {
		for (const node of manifest.n8n.nodes) {
			const base = path.join(installed, node.replace(/\.js$/, ''));
			expect(existsSync(`${base}.json`)).toBe(true);
		}
		expect(existsSync(path.join(installed, 'dist/nodes/MessagingBot/messagingBot.svg'))).toBe(true);
		expect(existsSync(path.join(installed, 'dist/nodes/MessagingBot/messagingBot.dark.svg'))).toBe(
			true,
		);
	});
});
