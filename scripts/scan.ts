/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- dev tooling: reports n8n's scanner findings, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { checkAgainst, countByFile, packAndUnpack, readAllowList, scanFolder } from './lib/scan';

/**
 * `npm run scan`: packs the package, runs n8n's scanner on the tarball's files and on the node
 * and credential sources, and fails on any finding scanner-allowlist.json does not list.
 * `--json` prints the findings as JSON; `--all` lists allowed findings too.
 */
async function main(): Promise<void> {
	const args = new Set(process.argv.slice(2));
	const dir = mkdtempSync(path.join(tmpdir(), 'mb-scan-'));
	try {
		const { packageDir } = packAndUnpack(dir);
		const tarball = await scanFolder(packageDir);
		const root = path.resolve(__dirname, '..');
		const source = await scanFolder(root, [
			'package.json',
			'{nodes,credentials}/**/*.{js,ts,json}',
		]);
		const allowed = readAllowList();
		const { unexpected, unused } = checkAgainst([...tarball, ...source], allowed);
		const unexpectedInSource = unexpected.filter((f) => !f.file.startsWith('dist/'));
		if (args.has('--json')) {
			process.stdout.write(
				`${JSON.stringify({ tarball, source, unexpected, unexpectedInSource, unused }, null, 2)}\n`,
			);
		} else {
			const line = (s: string) => process.stdout.write(`${s}\n`);
			line(`Tarball: ${tarball.length} findings, ${unexpected.length} not allowed`);
			for (const [file, n] of Object.entries(countByFile(tarball))) line(`  ${file}: ${n}`);
			line(
				`Sources (nodes/, credentials/, package.json): ${source.length} findings, ${unexpectedInSource.length} not allowed`,
			);
			for (const f of args.has('--all') ? [...tarball, ...source] : unexpected)
				line(`  ${f.file}:${f.line} ${f.rule}: ${f.message}`);
			for (const a of unused)
				line(
					`  allow-list entry matching nothing: ${a.file} ${a.rule} ${JSON.stringify(a.match ?? '*')}`,
				);
		}
		if (unexpected.length + unused.length > 0) process.exitCode = 1;
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

void main();
