/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- build tooling, never loaded by n8n */
import { build } from 'esbuild';
import { readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * After `n8n-node build` (tsc and static files), replaces every entry that n8n loads with one
 * self-contained CommonJS file. xstate, zod and undici are inlined, so the published package has
 * no runtime dependencies; n8n-workflow stays external (n8n provides it). Other compiled files
 * are then removed: nothing loads them.
 */
async function main(): Promise<void> {
	const root = path.resolve(__dirname, '..');
	const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as {
		n8n: { nodes: string[]; credentials: string[] };
		bin?: Record<string, string>;
	};
	const entries = [...pkg.n8n.nodes, ...pkg.n8n.credentials, ...Object.values(pkg.bin ?? {})];
	for (const out of entries) {
		const source = out.replace(/^dist\//, '').replace(/\.js$/, '.ts');
		await build({
			entryPoints: [path.join(root, source)],
			outfile: path.join(root, out),
			bundle: true,
			platform: 'node',
			format: 'cjs',
			target: 'node20',
			external: ['n8n-workflow'],
			legalComments: 'none',
			logLevel: 'warning',
		});
	}
	const keep = new Set(entries.map((e) => path.join(root, e)));
	for (const file of await walk(path.join(root, 'dist'))) {
		const compiled =
			/\.(js|d\.ts|js\.map|tsbuildinfo)$/.test(file) || file.endsWith('dist/package.json');
		if (compiled && !keep.has(file)) await rm(file);
	}
	await removeEmptyDirs(path.join(root, 'dist'));
}

async function walk(dir: string): Promise<string[]> {
	const out: string[] = [];
	for (const entry of await readdir(dir, { withFileTypes: true })) {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) out.push(...(await walk(full)));
		else out.push(full);
	}
	return out;
}

async function removeEmptyDirs(dir: string): Promise<boolean> {
	let empty = true;
	for (const entry of await readdir(dir, { withFileTypes: true })) {
		if (!entry.isDirectory() || !(await removeEmptyDirs(path.join(dir, entry.name)))) empty = false;
	}
	if (empty) await rm(dir, { recursive: true });
	return empty;
}

main().catch((error: unknown) => {
	// eslint-disable-next-line no-console -- a build script reports its failure
	console.error(error);
	throw error;
});
