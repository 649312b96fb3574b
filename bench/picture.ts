/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- benchmark tooling, never loaded by n8n */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { largeScenario } from './picture-fixture';

/**
 * `npm run bench:picture`: the PNG picture of a 60-state scenario against its SVG, each made in a
 * fresh process (modules loaded, laid out, drawn, written), alternated, median of 5. The PNG's
 * target: under 0.5 s beyond the process's start. A second line does the same for the scenario in
 * many scripts of the tests (Chinese, Arabic, emoji: the larger fonts read).
 */

const RUNS = 5;

function once(format: 'svg' | 'png', file: string, out: string): { ms: number; bytes: number } {
	const printed = execFileSync(
		process.execPath,
		['--import', 'tsx', path.join(__dirname, 'picture-run.ts'), format, file, out],
		{ encoding: 'utf8' },
	);
	const [ms, bytes] = printed.trim().split(' ').map(Number);
	return { ms, bytes };
}

const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function compare(name: string, file: string, dir: string): void {
	const svg: number[] = [];
	const png: number[] = [];
	let sizes = { svg: 0, png: 0 };
	once('png', file, path.join(dir, 'warm.png')); // tsx's compile cache, for both
	for (let i = 0; i < RUNS; i++) {
		const s = once('svg', file, path.join(dir, 'out.svg'));
		const p = once('png', file, path.join(dir, 'out.png'));
		svg.push(s.ms);
		png.push(p.ms);
		sizes = { svg: s.bytes, png: p.bytes };
	}
	const [s, p] = [median(svg), median(png)];
	process.stdout.write(
		`${name}: SVG ${s} ms (${Math.round(sizes.svg / 1024)} KB), PNG ${p} ms (${Math.round(sizes.png / 1024)} KB): ` +
			`PNG/SVG ${(p / s).toFixed(2)}, PNG ${p < 500 ? 'under' : 'OVER'} 0.5 s\n`,
	);
}

function main(): void {
	const dir = mkdtempSync(path.join(tmpdir(), 'mb-picture-'));
	try {
		const large = path.join(dir, 'large.json');
		writeFileSync(large, JSON.stringify(largeScenario(60)));
		compare('60 states, Latin', large, dir);
		compare(
			'7 states, every script',
			path.join(__dirname, '../test/scenarios/fixtures/every-script.json'),
			dir,
		);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

main();
