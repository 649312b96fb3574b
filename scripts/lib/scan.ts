/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- dev tooling: packs the package and runs n8n's scanner on it, never loaded by n8n */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
const scannerPath = require.resolve('@n8n/scan-community-package/scanner/scanner.mjs', {
	paths: [root],
});

/** One problem n8n's scanner reports, with the path inside the package. */
export interface Finding {
	file: string;
	rule: string;
	message: string;
	line: number;
}

/**
 * Accepted findings: those of `rule` in `file` whose message names one of `match` (every
 * finding of the rule in the file when `match` is absent), for `reason`. A `[hash]` in `file`
 * stands for the content hash the bundler puts in a studio chunk's name.
 */
export interface Allowed {
	file: string;
	rule: string;
	match?: string[];
	reason: string;
}

/** Packs the package as `npm publish` would and unpacks it into `dir`; returns the package folder. */
export function packAndUnpack(dir: string): { tarball: string; packageDir: string } {
	const packed = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--pack-destination', dir], {
			cwd: root,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe'],
		}),
	) as Array<{ filename: string }>;
	const tarball = path.join(dir, packed[0].filename);
	const packageDir = path.join(dir, 'package');
	mkdirSync(packageDir, { recursive: true });
	execFileSync('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1']);
	return { tarball, packageDir };
}

/**
 * n8n's scanner on a folder, with the config and options of its `analyzePackage` (inline
 * eslint-disable comments are ignored), returning each finding rather than formatted text.
 * `patterns` defaults to what the scanner lints in a published tarball.
 */
export async function scanFolder(
	dir: string,
	patterns: string[] = ['**/*.js', 'package.json'],
): Promise<Finding[]> {
	const scanner = (await import(scannerPath)) as {
		buildScanConfig(): Promise<unknown>;
	};
	const fromScanner = createRequire(scannerPath);
	const { ESLint } = fromScanner('eslint') as typeof import('eslint');
	const glob = fromScanner('fast-glob') as { sync(p: string[], o: object): string[] };
	const eslint = new ESLint({
		cwd: dir,
		allowInlineConfig: false,
		overrideConfigFile: true,
		overrideConfig: (await scanner.buildScanConfig()) as never,
	});
	const files = glob.sync(patterns, {
		cwd: dir,
		absolute: true,
		ignore: ['node_modules/**', '**/package-lock.json'],
	});
	const results = await eslint.lintFiles(files);
	return results.flatMap((r) =>
		r.messages
			.filter((m) => m.severity === 2)
			.map((m) => ({
				file: path.relative(dir, r.filePath),
				rule: m.ruleId ?? '(parse)',
				message: m.message,
				line: m.line,
			})),
	);
}

/** The allow-list kept in the repository. */
export function readAllowList(): Allowed[] {
	const raw = JSON.parse(readFileSync(path.join(root, 'scanner-allowlist.json'), 'utf8')) as {
		allowed: Allowed[];
	};
	return raw.allowed;
}

/** Findings no entry allows, and entries that allow nothing (stale). */
export function checkAgainst(
	findings: Finding[],
	allowed: Allowed[],
): { unexpected: Finding[]; unused: Allowed[] } {
	const matches = (f: Finding, a: Allowed) =>
		fileMatches(f.file, a.file) &&
		f.rule === a.rule &&
		(a.match === undefined || a.match.some((m) => f.message.includes(m)));
	return {
		unexpected: findings.filter((f) => !allowed.some((a) => matches(f, a))),
		unused: allowed.filter((a) => !findings.some((f) => matches(f, a))),
	};
}

function fileMatches(file: string, allowed: string): boolean {
	if (!allowed.includes('[hash]')) return file === allowed;
	const [before, after] = allowed.split('[hash]');
	return new RegExp(`^${literal(before)}[A-Z0-9]+${literal(after)}$`).test(file);
}

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Findings counted per file, for a short report. */
export function countByFile(findings: Finding[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const f of findings) counts[f.file] = (counts[f.file] ?? 0) + 1;
	return counts;
}
