/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- dev tooling: installs the packed package into an n8n user folder, never loaded by n8n */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import path from 'node:path';

import { unbuiltFiles } from './build-stamp';

const root = path.resolve(__dirname, '../..');
const PACKED = path.join(root, 'node_modules/.cache/n8n-nodes-messaging-bot/packed');

/** The files npm would pack, by name, size and time: a new build changes it. */
function buildKey(): string {
	const hash = createHash('sha256').update(readFileSync(path.join(root, 'package.json')));
	const walk = (dir: string): void => {
		for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
			a.name.localeCompare(b.name),
		)) {
			const full = path.join(dir, entry.name);
			if (entry.isDirectory()) walk(full);
			else hash.update(`${full}\0${statSync(full).size}\0${statSync(full).mtimeMs}\0`);
		}
	};
	for (const dir of ['dist', 'bin'])
		if (existsSync(path.join(root, dir))) walk(path.join(root, dir));
	return hash.digest('hex').slice(0, 16);
}

/**
 * Packs this package as npm would publish it; returns the tarball's path. Packed once per build
 * (npm pack takes about 2 s, and the end-to-end tests install the package in some 40 n8n user
 * folders); parallel test workers each pack into a folder of their own and rename it into place.
 */
export function packPackage(): string {
	const missing = unbuiltFiles();
	// n8n refuses the whole package when one declared file is missing.
	if (missing.length > 0)
		throw new Error(`Not built: ${missing.join(', ')}. Run \`npm run build\` first.`);
	const destination = path.join(PACKED, buildKey());
	if (!existsSync(destination)) {
		mkdirSync(PACKED, { recursive: true });
		const own = mkdtempSync(path.join(PACKED, 'packing-'));
		execFileSync('npm', ['pack', '--pack-destination', own], {
			cwd: root,
			stdio: ['ignore', 'ignore', 'ignore'],
		});
		try {
			renameSync(own, destination);
			// Earlier builds' tarballs are of no further use.
			for (const old of readdirSync(PACKED))
				if (!old.startsWith('packing-') && path.join(PACKED, old) !== destination)
					rmSync(path.join(PACKED, old), { recursive: true, force: true });
		} catch {
			// Another worker's copy of the same build is there first.
			rmSync(own, { recursive: true, force: true });
		}
	}
	const file = readdirSync(destination).find((f) => f.endsWith('.tgz'));
	if (!file) throw new Error(`npm pack left no tarball in ${destination}`);
	return path.join(destination, file);
}

/**
 * Puts the package where n8n keeps community packages (<user folder>/.n8n/nodes/node_modules),
 * unpacked as n8n's own installer unpacks a tarball, so n8n loads it as a community package.
 */
export function installPackage(userFolder: string, tarball: string): void {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const target = path.join(nodesDir, 'node_modules', 'n8n-nodes-messaging-bot');
	mkdirSync(target, { recursive: true });
	execFileSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
	const version = (
		JSON.parse(
			execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }),
		) as { version: string }
	).version;
	writeFileSync(
		path.join(nodesDir, 'package.json'),
		JSON.stringify(
			{
				name: 'installed-nodes',
				private: true,
				dependencies: { 'n8n-nodes-messaging-bot': version },
			},
			null,
			2,
		),
	);
}
