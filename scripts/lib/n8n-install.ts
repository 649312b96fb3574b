/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- dev tooling: installs and runs n8n, never loaded by n8n */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

/** The n8n the end-to-end suite and `npm start` run: pinned, installed once outside the repo. */
export const N8N_VERSION = '2.41.1';

/** The newest n8n 1.x: the end-to-end core cases run on it too, on Node.js N8N_1_NODE. */
export const N8N_1_VERSION = '1.123.81';

/**
 * The Node.js that runs n8n 1.x: the newest 22.x. n8n 1.123 declares Node 20.19 to 24, but its
 * default expression engine (isolated-vm) ships builds for Node 22 and 24 only, so on Node 20 it
 * stops at start; Node 22 is what n8n's own 1.x images run.
 */
export const N8N_1_NODE = '22.23.3';

/** Every n8n version the package is tested on, newest first. */
export const TESTED_N8N_VERSIONS = [N8N_VERSION, N8N_1_VERSION] as const;

function cacheBase(): string {
	return (
		process.env.MESSAGING_BOT_N8N_CACHE ??
		path.join(
			process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'),
			'n8n-nodes-messaging-bot',
		)
	);
}

export function n8nCacheDir(version: string = N8N_VERSION): string {
	return path.join(cacheBase(), `n8n-${version}`);
}

/**
 * A Node.js from the npm package `node` (as the `node` 24 dev dependency), installed once into
 * the cache beside n8n; returns its binary. About 10 s and 185 MB.
 */
export function ensureNode(version: string): string {
	const dir = path.join(cacheBase(), `node-${version}`);
	const bin = path.join(dir, 'node_modules/node/bin/node');
	if (existsSync(path.join(dir, '.complete'))) return bin;
	const staging = `${dir}.partial`;
	rmSync(staging, { recursive: true, force: true });
	mkdirSync(staging, { recursive: true });
	writeFileSync(
		path.join(staging, 'package.json'),
		JSON.stringify({ name: 'node-runtime', private: true, dependencies: { node: version } }),
	);
	execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
		cwd: staging,
		stdio: ['ignore', 'ignore', 'inherit'],
	});
	writeFileSync(path.join(staging, '.complete'), new Date().toISOString());
	rmSync(dir, { recursive: true, force: true });
	renameSync(staging, dir);
	return bin;
}

export function n8nBin(version: string = N8N_VERSION): string {
	return path.join(n8nCacheDir(version), 'node_modules/n8n/bin/n8n');
}

/**
 * Dependencies pinned to versions the npm registry has: n8n 2.x's newest linkedom needs a package
 * the registry lacks; n8n 1.x's nodes ask for xlsx as a tarball from its maker's own site (not a
 * registry), and 0.18.5, the registry's newest, has the same API.
 */
function overridesFor(version: string): Record<string, string> {
	return version.startsWith('1.') ? { xlsx: '0.18.5' } : { linkedom: '0.18.12' };
}

/**
 * Installs n8n into the cache unless it is there. Registry quirks are worked around: a few
 * dependencies are pinned (overridesFor), and install scripts are skipped (a Kafka client's
 * native build downloads zlib) with only sqlite3 rebuilt.
 */
export function ensureN8n(
	log: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
	version: string = N8N_VERSION,
): string {
	const dir = n8nCacheDir(version);
	if (existsSync(path.join(dir, '.complete'))) return n8nBin(version);
	const staging = `${dir}.partial`;
	rmSync(staging, { recursive: true, force: true });
	mkdirSync(staging, { recursive: true });
	writeFileSync(
		path.join(staging, 'package.json'),
		JSON.stringify(
			{
				name: 'n8n-runtime',
				private: true,
				dependencies: { n8n: version },
				overrides: overridesFor(version),
			},
			null,
			2,
		),
	);
	// sqlite3 is built for the Node that runs n8n (this one) against Node-API, which any Node's
	// headers provide: this Node's if it ships them, else the machine's. node-gyp's own fallback
	// downloads headers from nodejs.org, which a closed network refuses.
	const env: NodeJS.ProcessEnv = {
		...process.env,
		npm_config_yes: 'true',
		PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
	};
	const headers = [path.dirname(path.dirname(process.execPath)), '/usr/local', '/usr'].find((d) =>
		existsSync(path.join(d, 'include/node/node_api.h')),
	);
	if (headers && !process.env.npm_config_nodedir) env.npm_config_nodedir = headers;
	const npm = (args: string[]) =>
		execFileSync('npm', args, { cwd: staging, stdio: ['ignore', 'ignore', 'inherit'], env });
	log(`Installing n8n ${version} into ${dir} (once; 4 to 6 minutes)…`);
	const started = Date.now();
	npm(['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error']);
	log('Building sqlite3 for n8n…');
	npm(['rebuild', 'sqlite3']);
	writeFileSync(path.join(staging, '.complete'), new Date().toISOString());
	rmSync(dir, { recursive: true, force: true });
	renameSync(staging, dir);
	log(`n8n ${version} installed in ${Math.round((Date.now() - started) / 1000)} s`);
	return n8nBin(version);
}

/** Installs `version` (and the Node.js that runs it) and prints their binaries. */
function install(version: string): void {
	process.stdout.write(`${ensureN8n(undefined, version)}\n`);
	if (version.startsWith('1.')) process.stdout.write(`${ensureNode(N8N_1_NODE)}\n`);
}

/**
 * Several versions at once, each in a process of its own (this script, one version): an install
 * waits mostly on the registry and the disk, so two side by side take little longer than one (a
 * new machine's `npm test` installs both: 383 and 370 s so, 622 s one after the other).
 */
async function installAll(versions: readonly string[]): Promise<void> {
	const children = versions.map(
		(version) =>
			new Promise<void>((resolve, reject) =>
				spawn(process.execPath, [...process.execArgv, __filename, version], { stdio: 'inherit' })
					.on('error', reject)
					.on('exit', (code) =>
						code === 0 ? resolve() : reject(new Error(`n8n ${version}: install exited ${code}`)),
					),
			),
	);
	const failed = (await Promise.allSettled(children)).filter((r) => r.status === 'rejected');
	for (const f of failed) process.stderr.write(`${String((f as PromiseRejectedResult).reason)}\n`);
	if (failed.length > 0) process.exitCode = 1;
}

// `tsx scripts/lib/n8n-install.ts`: the current n8n (`npm start`, the editor test); `--all`:
// every tested one (`npm test`); or the versions given.
if (require.main === module) {
	const args = process.argv.slice(2);
	const versions = args.includes('--all')
		? TESTED_N8N_VERSIONS
		: args.length > 0
			? args
			: [N8N_VERSION];
	if (versions.length === 1) install(versions[0]);
	else void installAll(versions);
}
