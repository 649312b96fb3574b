/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- build tooling, never loaded by n8n */
/**
 * `npm run build` unless dist/ was built from the sources as they are (the browser tests run
 * after `npm test`, which has just built: about 15 s saved each, and the same files tested).
 */
import { spawnSync } from 'node:child_process';

import { builtFromCurrentSources } from './lib/build-stamp';

if (builtFromCurrentSources()) {
	process.stdout.write('dist/ is built from the current sources: not building again\n');
} else {
	const { status } = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
	process.exitCode = status ?? 1;
}
