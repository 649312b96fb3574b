/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- build tooling, never loaded by n8n */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
const STAMP = path.join(root, 'node_modules/.cache/n8n-nodes-messaging-bot/build.json');

/** What the build never reads: tests, benches, documents, CI. */
const NOT_BUILT = /^(test|bench|docs|\.ci)\/|\.md$/;

/**
 * A hash of every file the build may read (tracked or new, as git lists them, with their
 * contents), or undefined outside a git checkout: then nothing counts as built.
 */
function sourceFingerprint(): string | undefined {
	let files: string[];
	try {
		files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], {
			cwd: root,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore'],
		})
			.split('\0')
			.filter((f) => f && !NOT_BUILT.test(f))
			.sort();
	} catch {
		return undefined;
	}
	const hash = createHash('sha256');
	for (const file of files) {
		const full = path.join(root, file);
		// A file deleted but not yet staged is still listed.
		const content = existsSync(full) ? readFileSync(full) : undefined;
		hash.update(`${file}\0${content?.length ?? -1}\0`);
		if (content) hash.update(content);
	}
	return hash.digest('hex');
}

/** The files package.json tells n8n to load that dist/ lacks (a dist/ removed by hand). */
export function unbuiltFiles(): string[] {
	const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
		n8n: { nodes: string[]; credentials: string[] };
	};
	return [...pkg.n8n.nodes, ...pkg.n8n.credentials].filter((f) => !existsSync(path.join(root, f)));
}

/** Called at the end of `npm run build`: dist/ now holds what the sources say. */
export function writeBuildStamp(): void {
	const fingerprint = sourceFingerprint();
	if (!fingerprint) return;
	mkdirSync(path.dirname(STAMP), { recursive: true });
	writeFileSync(STAMP, JSON.stringify({ fingerprint }));
}

/** Whether dist/ was built from the sources as they are now. */
export function builtFromCurrentSources(): boolean {
	if (!existsSync(STAMP) || unbuiltFiles().length > 0) return false;
	const fingerprint = sourceFingerprint();
	const stamped = (JSON.parse(readFileSync(STAMP, 'utf8')) as { fingerprint?: string }).fingerprint;
	return fingerprint !== undefined && stamped === fingerprint;
}
