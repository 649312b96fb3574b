/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- build tooling, never loaded by n8n */
import { build, type Plugin } from 'esbuild';
import { existsSync } from 'node:fs';
import { cp, readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';

import { bundleStudio } from './bundle-studio';
import { writeBuildStamp } from './lib/build-stamp';

const root = path.resolve(__dirname, '..');

/**
 * Modules shipped once, in a file of their own that the node files require, instead of inlined
 * into each node file. The request budget registry must be one per process for every node; the
 * stores hold what n8n's scanner reports (node:sqlite, files, ioredis, pg), loaded only when chosen;
 * the Own Port Trigger's HTTP server (node:http) lives in the runtime, not in the node file; the
 * PNG picture's font files and zlib are read from picture-files.js.
 */
export const SHARED_MODULES: Record<string, string> = {
	'runtime/api/budget/registry.ts': 'dist/lib/budget.js',
	'runtime/stores/sqlite.ts': 'dist/lib/sqlite-store.js',
	'runtime/stores/redis.ts': 'dist/lib/redis-store.js',
	'runtime/stores/postgres.ts': 'dist/lib/postgres-store.js',
	'runtime/webhooks/listener.ts': 'dist/lib/port-listener.js',
	'runtime/scenarios/offline/picture/files.ts': 'dist/lib/picture-files.js',
};

/** The PNG picture's fonts, beside the module that reads them (picture/files.ts). */
const PICTURE_FONTS = { from: 'runtime/scenarios/offline/picture/fonts', to: 'dist/lib/fonts' };

/**
 * Packages shipped once, in a file of their own, for every file that uses them. n8n's scanner
 * reports code in them that this package never runs (see scanner-allowlist.json).
 */
export const VENDORED: Record<string, string> = {
	ioredis: 'dist/vendor/ioredis.js',
	pg: 'dist/vendor/pg.js',
	xstate: 'dist/vendor/xstate.js',
	re2js: 'dist/vendor/re2js.js',
	'opentype.js': 'dist/vendor/opentype.js',
	'bidi-js': 'dist/vendor/bidi-js.js',
};

/** The command-line tool: shipped apart from the node files, which never load it. */
export const CLI: Record<string, string> = {
	'dist/cli/scenario.js': 'runtime/cli/scenario.ts',
};

/**
 * After `n8n-node build` (tsc and static files), replaces every file n8n loads with a CommonJS
 * bundle: xstate, zod and the runtime are inlined, so the package has no runtime dependencies;
 * n8n-workflow stays external (n8n provides it); the shared modules and vendored packages above
 * are required from their one file. Other compiled files are then removed: nothing loads them.
 */
async function main(): Promise<void> {
	const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as {
		n8n: { nodes: string[]; credentials: string[] };
	};
	const entries: Record<string, string> = { ...CLI };
	for (const out of [...pkg.n8n.nodes, ...pkg.n8n.credentials])
		entries[out] = out.replace(/^dist\//, '').replace(/\.js$/, '.ts');
	for (const [source, out] of Object.entries(SHARED_MODULES)) entries[out] = source;
	for (const [out, source] of Object.entries(entries)) await bundle(source, out);
	for (const [name, out] of Object.entries(VENDORED)) await bundleVendor(name, out);

	const keep = new Set(
		[...Object.keys(entries), ...Object.values(VENDORED)].map((e) => path.join(root, e)),
	);
	for (const file of await walk(path.join(root, 'dist'))) {
		const compiled =
			/\.(js|d\.ts|js\.map|tsbuildinfo)$/.test(file) || file.endsWith('dist/package.json');
		if (compiled && !keep.has(file)) await rm(file);
	}
	// The example scenario the Scenario node imports is inlined; tsc's copy is not needed.
	await rm(path.join(root, 'dist/examples'), { recursive: true, force: true });
	await removeEmptyDirs(path.join(root, 'dist'));
	await cp(path.join(root, PICTURE_FONTS.from), path.join(root, PICTURE_FONTS.to), {
		recursive: true,
	});
	// The studio page, for the browser, after the clean-up above (which keeps only node files).
	await bundleStudio();
	// What `npm run test:editor` and `test:studio` read to skip building the same sources again.
	writeBuildStamp();
}

const common = {
	bundle: true,
	platform: 'node',
	format: 'cjs',
	target: 'node20',
	legalComments: 'none',
	logLevel: 'warning',
} as const;

async function bundle(source: string, out: string): Promise<void> {
	await build({
		...common,
		entryPoints: [path.join(root, source)],
		outfile: path.join(root, out),
		external: ['n8n-workflow'],
		plugins: [sharedFiles(out, source)],
	});
}

/**
 * What a vendored package requires only in a setting this package never uses, left unbundled (a
 * require that never runs): pg's libpq binding (pg.native, opt-in) and its Cloudflare Workers socket.
 */
const NEVER_LOADED = ['pg-native', 'pg-cloudflare', 'cloudflare:sockets'];

async function bundleVendor(name: string, out: string): Promise<void> {
	await build({
		...common,
		stdin: { contents: `module.exports = require(${JSON.stringify(name)});`, resolveDir: root },
		outfile: path.join(root, out),
		external: NEVER_LOADED,
	});
}

/** Resolves a relative import to the source file it names, as the bundler would. */
function sourceFile(resolveDir: string, request: string): string | undefined {
	const base = path.resolve(resolveDir, request);
	return [base, `${base}.ts`, path.join(base, 'index.ts')].find((f) => existsSync(f));
}

/**
 * Imports of a shared module or vendored package become a require of its shipped file, relative
 * to the file being built; the module being built itself is bundled as usual.
 */
function sharedFiles(out: string, self: string): Plugin {
	const shipped = new Map(
		Object.entries(SHARED_MODULES).map(([source, file]) => [path.join(root, source), file]),
	);
	const relative = (file: string) => {
		const rel = path.relative(path.dirname(path.join(root, out)), path.join(root, file));
		return rel.startsWith('.') ? rel : `./${rel}`;
	};
	return {
		name: 'shared-files',
		setup(b) {
			b.onResolve({ filter: /.*/ }, (args) => {
				if (args.kind === 'entry-point') return undefined;
				if (VENDORED[args.path]) return { path: relative(VENDORED[args.path]), external: true };
				if (!args.path.startsWith('.')) return undefined;
				const file = sourceFile(args.resolveDir, args.path);
				const target = file && shipped.get(file);
				if (!target || file === path.join(root, self)) return undefined;
				return { path: relative(target), external: true };
			});
		},
	};
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

if (require.main === module) {
	main().catch((error: unknown) => {
		// eslint-disable-next-line no-console -- a build script reports its failure
		console.error(error);
		throw error;
	});
}
