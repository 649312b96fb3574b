/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- build tooling, never loaded by n8n */
import { build, type Plugin } from 'esbuild';
import { copyFile, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';

const root = path.resolve(__dirname, '..');
const page = path.join(root, 'runtime/studio/page');

/** The Scenario Studio's page: its HTML file, style sheet, script and the chunks the script imports. */
export const STUDIO_DIR = 'dist/studio';

/**
 * Bundles the studio page for the browser (React, React Flow, dagre, CodeMirror, Prettier and the
 * scenario runtime), apart from every node file: no node bundle includes or requires it. ES modules
 * with code splitting: the JSON editor and Prettier, imported with `import()` when first needed,
 * come as chunks of their own (chunks/), and whatever they share with the page is loaded once.
 */
export async function bundleStudio(): Promise<void> {
	const out = path.join(root, STUDIO_DIR);
	await rm(out, { recursive: true, force: true });
	await mkdir(out, { recursive: true });
	const built = await build({
		absWorkingDir: root,
		entryPoints: { studio: path.join(page, 'main.tsx') },
		outdir: out,
		bundle: true,
		splitting: true,
		format: 'esm',
		chunkNames: 'chunks/[name]-[hash]',
		platform: 'browser',
		target: ['chrome110', 'firefox110', 'safari16'],
		minify: true,
		legalComments: 'none',
		logLevel: 'warning',
		jsx: 'automatic',
		metafile: true,
		define: { 'process.env.NODE_ENV': '"production"' },
		plugins: [browserShims()],
	});
	await copyFile(path.join(page, 'index.html'), path.join(out, 'index.html'));
	const sizes = Object.entries(built.metafile.outputs).map(
		([file, { bytes }]) => `${path.relative(out, path.resolve(root, file))} ${kb(bytes)}`,
	);
	process.stdout.write(`Scenario Studio page (${STUDIO_DIR}): ${sizes.join(', ')}\n`);
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

/** `node:crypto` in the runtime becomes the browser's crypto; any other `node:` import fails the build. */
function browserShims(): Plugin {
	return {
		name: 'browser-shims',
		setup(b) {
			b.onResolve({ filter: /^node:/ }, (args) => {
				if (args.path === 'node:crypto') return { path: path.join(page, 'shims/node-crypto.ts') };
				return {
					errors: [
						{ text: `${args.path} cannot run in the studio page (imported by ${args.importer})` },
					],
				};
			});
		},
	};
}

if (require.main === module) {
	bundleStudio().catch((error: unknown) => {
		// eslint-disable-next-line no-console -- a build script reports its failure
		console.error(error);
		process.exitCode = 1;
	});
}
