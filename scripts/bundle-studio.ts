/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- build tooling, never loaded by n8n */
import { build, type Plugin } from 'esbuild';
import { copyFile, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';

const root = path.resolve(__dirname, '..');
const page = path.join(root, 'runtime/studio/page');

/** The Scenario Studio's page: its script, style sheet and HTML file, the JSON editor's and Prettier's scripts. */
export const STUDIO_DIR = 'dist/studio';

/**
 * Bundles the studio page for the browser (React, React Flow, dagre, CodeMirror, Prettier and the
 * scenario runtime), apart from every node file: no node bundle includes or requires it.
 */
export async function bundleStudio(): Promise<void> {
	const out = path.join(root, STUDIO_DIR);
	await mkdir(out, { recursive: true });
	await build({
		entryPoints: {
			studio: path.join(page, 'main.tsx'),
			'studio-format': path.join(page, 'format-entry.ts'),
			'studio-json': path.join(page, 'json-editor-entry.ts'),
		},
		outdir: out,
		bundle: true,
		platform: 'browser',
		format: 'iife',
		target: ['chrome110', 'firefox110', 'safari16'],
		minify: true,
		legalComments: 'none',
		logLevel: 'warning',
		jsx: 'automatic',
		define: { 'process.env.NODE_ENV': '"production"' },
		plugins: [browserShims()],
	});
	await copyFile(path.join(page, 'index.html'), path.join(out, 'index.html'));
	const sizes = await Promise.all(
		['studio.js', 'studio.css', 'studio-json.js', 'studio-format.js'].map(
			async (f) => `${f} ${kb((await stat(path.join(out, f))).size)}`,
		),
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
