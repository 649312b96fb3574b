#!/usr/bin/env node
'use strict';
// messaging-bot-scenario. Installed from npm: the bundle in dist/. In a clone of the repository
// (the TypeScript source beside this file, tsx installed): the source through tsx, so the command
// works right after `npm install`, with no build and never from a stale one.
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const source = join(root, 'runtime', 'cli', 'scenario.ts');

function fromSource() {
	if (!existsSync(source)) return false;
	try {
		require.resolve('tsx/cjs');
	} catch {
		return false;
	}
	return true;
}

async function start() {
	if (!fromSource()) return require('../dist/cli/scenario.js').run();
	require('tsx/cjs');
	// The studio serves its page from dist/studio: built once, on the first `studio`.
	if (process.argv[2] === 'studio' && !existsSync(join(root, 'dist', 'studio', 'index.html')))
		await require(join(root, 'scripts', 'bundle-studio.ts')).bundleStudio();
	require(source).run();
}

start().catch((error) => {
	process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
	process.exitCode = 1;
});
