/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test tooling: finds and runs the machine's own Node.js, never loaded by n8n */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The machine's Node.js 20 (npm scripts put the newer `node` dev dependency first on PATH):
 * MESSAGING_BOT_NODE20 if set, else the first `node` on PATH outside node_modules that is 20.x.
 */
export function systemNode20(): string {
	const fromEnv = process.env.MESSAGING_BOT_NODE20;
	const candidates = fromEnv
		? [fromEnv]
		: (process.env.PATH ?? '')
				.split(path.delimiter)
				.filter((dir) => dir && !dir.includes('node_modules'))
				.map((dir) => path.join(dir, 'node'))
				.concat(['/usr/bin/node', '/usr/local/bin/node']);
	for (const candidate of candidates) {
		if (!existsSync(candidate)) continue;
		const version = execFileSync(candidate, ['--version'], { encoding: 'utf8' }).trim();
		if (version.startsWith('v20.')) return candidate;
	}
	throw new Error(
		'No Node.js 20 found outside node_modules; install one or point MESSAGING_BOT_NODE20 at it',
	);
}
