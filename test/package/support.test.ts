/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling: reads committed files, never loaded by n8n */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { N8N_VERSION, TESTED_N8N_VERSIONS } from '../../scripts/lib/n8n-install';

const root = path.resolve(__dirname, '../..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
	engines: Record<string, string>;
	peerDependencies: Record<string, string>;
	devDependencies: Record<string, string>;
};
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

// What the package says it supports is what the end-to-end tests run, and nothing else.
describe('the supported n8n', () => {
	it('is every n8n the end-to-end tests install, and only those, in engines and in the README', () => {
		expect(pkg.engines.n8n.split(' || ').sort()).toEqual([...TESTED_N8N_VERSIONS].sort());
		for (const version of TESTED_N8N_VERSIONS) expect(readme).toContain(`n8n ${version}`);
		const named = readme.match(/\bn8n (\d+\.\d+\.\d+)/g) ?? [];
		expect([...new Set(named.map((n) => n.slice(4)))].sort()).toEqual(
			[...TESTED_N8N_VERSIONS].sort(),
		);
	});

	it('matches the n8n-workflow and n8n-core the node tests build against', () => {
		expect(pkg.devDependencies['n8n-core']).toBe(N8N_VERSION);
		expect(pkg.devDependencies['n8n-workflow'].split('.').slice(0, 2)).toEqual(
			N8N_VERSION.split('.').slice(0, 2),
		);
	});

	// n8n's scanner (valid-peer-dependencies) refuses any other range, so the versions are in engines.
	it('keeps the peer range n8n requires of community packages', () => {
		expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
	});
});
