/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- dev tooling: installs and runs n8n, never loaded by n8n */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

/** The n8n the end-to-end suite and `npm start` run: pinned, installed once outside the repo. */
export const N8N_VERSION = '2.41.1';

export function n8nCacheDir(): string {
	const base =
		process.env.MESSAGING_BOT_N8N_CACHE ??
		path.join(
			process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'),
			'n8n-nodes-messaging-bot',
		);
	return path.join(base, `n8n-${N8N_VERSION}`);
}

export function n8nBin(): string {
	return path.join(n8nCacheDir(), 'node_modules/n8n/bin/n8n');
}

/**
 * Installs n8n into the cache unless it is there. Two registry quirks are worked around:
 * linkedom is pinned (the newest needs a package the registry lacks), and install scripts are
 * skipped (a Kafka client's native build downloads zlib) with only sqlite3 rebuilt.
 */
export function ensureN8n(
	log: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
): string {
	const dir = n8nCacheDir();
	if (existsSync(path.join(dir, '.complete'))) return n8nBin();
	const staging = `${dir}.partial`;
	rmSync(staging, { recursive: true, force: true });
	mkdirSync(staging, { recursive: true });
	writeFileSync(
		path.join(staging, 'package.json'),
		JSON.stringify(
			{
				name: 'n8n-runtime',
				private: true,
				dependencies: { n8n: N8N_VERSION },
				overrides: { linkedom: '0.18.12' },
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
	log(`Installing n8n ${N8N_VERSION} into ${dir} (once; 3 to 4 minutes)…`);
	const started = Date.now();
	npm(['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error']);
	log('Building sqlite3 for n8n…');
	npm(['rebuild', 'sqlite3']);
	writeFileSync(path.join(staging, '.complete'), new Date().toISOString());
	rmSync(dir, { recursive: true, force: true });
	renameSync(staging, dir);
	log(`n8n ${N8N_VERSION} installed in ${Math.round((Date.now() - started) / 1000)} s`);
	return n8nBin();
}

if (require.main === module) {
	process.stdout.write(`${ensureN8n()}\n`);
}
