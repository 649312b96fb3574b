/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling: reads the repository's files, never loaded by n8n */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import type { INodeTypeDescription } from 'n8n-workflow';

import { DOCS, PACKAGE_PAGE, REPOSITORY } from '../../nodes/shared/documentation';
import { markdownAnchors, markdownLinks } from '../helpers/markdown';

// Every documentation link a user can follow: those the nodes and credentials show in n8n's
// editor, and every relative link of the Markdown files, reach a file and a heading that exist.

const ROOT = path.resolve(__dirname, '../..');
const SKIP = new Set(['node_modules', 'dist', '.git']);

function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
	return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
		const rel = path.join(dir, entry.name);
		if (entry.isDirectory()) return SKIP.has(entry.name) ? [] : filesUnder(rel, keep);
		return keep(entry.name) ? [rel] : [];
	});
}

const anchorsOf = new Map<string, Set<string>>();
function anchors(file: string): Set<string> {
	let found = anchorsOf.get(file);
	if (!found) {
		found = markdownAnchors(readFileSync(path.join(ROOT, file), 'utf8'));
		anchorsOf.set(file, found);
	}
	return found;
}

/** What is wrong with a link to `target` (a path from the root) and `anchor`, or undefined. */
function brokenTarget(target: string, anchor: string): string | undefined {
	if (!existsSync(path.join(ROOT, target))) return `no file ${target}`;
	if (!anchor) return undefined;
	if (statSync(path.join(ROOT, target)).isDirectory()) return `${target} is a folder, #${anchor}`;
	if (!target.endsWith('.md')) return undefined; // #L12 and the like on source files
	return anchors(target).has(anchor) ? undefined : `no heading #${anchor} in ${target}`;
}

/** The local file and heading an absolute documentation link means, or why it means none. */
function localTarget(url: string): { target: string; anchor: string } | string {
	const [base, anchor = ''] = url.split('#');
	if (base === PACKAGE_PAGE) return { target: 'README.md', anchor };
	const page = base.match(new RegExp(`^${REPOSITORY}/(?:blob|tree)/main/(.+)$`));
	if (page) return { target: page[1], anchor };
	if (base === REPOSITORY) return { target: 'README.md', anchor };
	return `${url} is neither the package's npm page nor a file of ${REPOSITORY}`;
}

const LINK_PATTERN = /https?:\/\/[^\s"'`<>\\)]+/g;

const isOurs = (url: string) => url.startsWith(PACKAGE_PAGE) || url.startsWith(REPOSITORY);

type Described = { description?: INodeTypeDescription; name?: string; documentationUrl?: string };

/** Every node and credential class of the package, as n8n's editor loads them. */
function typesIn(dir: string, suffix: string): Array<[string, Described]> {
	return filesUnder(dir, (n) => n.endsWith(suffix)).flatMap((file) =>
		Object.values(
			jest.requireActual<Record<string, new () => Described>>(path.join(ROOT, file)),
		).map((Type): [string, Described] => [file, new Type()]),
	);
}

/** Every URL the nodes and credentials show in n8n's editor, by where it is written. */
function editorLinks(): Array<[string, string]> {
	const links: Array<[string, string]> = Object.entries(DOCS).map(([key, url]) => [
		`DOCS.${key}`,
		url,
	]);
	for (const [file, shown] of [
		...typesIn('nodes', '.node.ts'),
		...typesIn('credentials', '.credentials.ts'),
	])
		for (const url of JSON.stringify(shown).match(LINK_PATTERN) ?? []) links.push([file, url]);
	// Links written in any other text of theirs (error messages, notices) too.
	for (const file of [
		...filesUnder('nodes', (n) => n.endsWith('.ts')),
		...filesUnder('credentials', (n) => n.endsWith('.ts')),
	])
		for (const url of readFileSync(path.join(ROOT, file), 'utf8').match(LINK_PATTERN) ?? [])
			links.push([file, url]);
	for (const file of filesUnder('nodes', (n) => n.endsWith('.node.json')))
		for (const [kind, url] of codexLinks(file)) links.push([`${file} ${kind}`, url]);
	// n8n's own links (its docs) are n8n's to keep; every link to this package is checked.
	return links.filter(([, url]) => isOurs(url) || /npmjs\.com|github\.com/.test(url));
}

function codexLinks(file: string): Array<[string, string]> {
	const codex = JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as {
		resources?: Record<string, Array<{ url: string }>>;
	};
	return Object.entries(codex.resources ?? {}).flatMap(([kind, entries]) =>
		entries.map(({ url }): [string, string] => [kind, url]),
	);
}

const MARKDOWN = [
	'README.md',
	'CONTRIBUTING.md',
	...filesUnder('docs', (n) => n.endsWith('.md')),
	...['runtime', 'nodes', 'credentials', 'test', 'scripts', 'bench', 'examples']
		.filter((dir) => existsSync(path.join(ROOT, dir)))
		.flatMap((dir) => filesUnder(dir, (n) => n === 'README.md')),
];

describe('documentation links', () => {
	it('package.json names the repository and the npm page the nodes link to', () => {
		const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
			homepage: string;
			repository: { url: string };
		};
		expect(pkg.homepage).toBe(PACKAGE_PAGE);
		expect(pkg.repository.url).toBe(`git+${REPOSITORY}.git`);
	});

	it('every Docs link of the nodes and credentials reaches a file and heading', () => {
		const links = editorLinks();
		// Each node and credential has its own link, and the codex files theirs.
		expect(links.length).toBeGreaterThanOrEqual(Object.keys(DOCS).length + 4 + 3 + 8);
		const broken = links.flatMap(([where, url]) => {
			const local = localTarget(url);
			const why = typeof local === 'string' ? local : brokenTarget(local.target, local.anchor);
			return why ? [`${where}: ${url}: ${why}`] : [];
		});
		expect(broken).toEqual([]);
	});

	it("a node's codex file links where the node and its credentials do", () => {
		const credentialDocs = new Map(
			typesIn('credentials', '.credentials.ts').map(([, c]) => [c.name, c.documentationUrl]),
		);
		const nodes = typesIn('nodes', '.node.ts');
		expect(nodes.length).toBeGreaterThanOrEqual(4);
		for (const [file, node] of nodes) {
			const links = codexLinks(file.replace(/\.ts$/, '.json'));
			const own = links.filter(([kind]) => kind === 'primaryDocumentation').map(([, url]) => url);
			expect([file, own]).toEqual([file, [node.description?.documentationUrl]]);
			const theirs = (node.description?.credentials ?? []).map((c) => credentialDocs.get(c.name));
			for (const [kind, url] of links.filter(([k]) => k === 'credentialDocumentation'))
				expect([file, kind, theirs]).toEqual([file, kind, expect.arrayContaining([url])]);
		}
	});

	it('every relative link of the Markdown files reaches a file and heading', () => {
		expect(MARKDOWN.length).toBeGreaterThan(10);
		const broken = MARKDOWN.flatMap((file) =>
			markdownLinks(readFileSync(path.join(ROOT, file), 'utf8')).flatMap((href) => {
				let why: string | undefined;
				if (/^[a-z]+:/.test(href)) {
					if (!isOurs(href)) return []; // other sites are not checked: no network here
					const local = localTarget(href);
					why = typeof local === 'string' ? local : brokenTarget(local.target, local.anchor);
				} else {
					const [rel, anchor = ''] = href.split('#');
					const target = rel ? path.normalize(path.join(path.dirname(file), decodeURI(rel))) : file;
					why = brokenTarget(target, anchor);
				}
				return why ? [`${file}: (${href}): ${why}`] : [];
			}),
		);
		expect(broken).toEqual([]);
	});

	it('the README links every page of docs/', () => {
		const linked = new Set(
			markdownLinks(readFileSync(path.join(ROOT, 'README.md'), 'utf8')).map(
				(href) => href.split('#')[0],
			),
		);
		const pages = filesUnder('docs', (n) => n.endsWith('.md')).map((f) =>
			f.split(path.sep).join('/'),
		);
		expect(pages.filter((page) => !linked.has(page))).toEqual([]);
	});

	it('an assumption is linked by its id alone: docs/service-assumptions.md#a39', () => {
		const ids = [...anchors('docs/service-assumptions.md')].filter((a) => /^a\d+$/.test(a));
		// One anchor per assumption heading, numbered from A1 with none missing.
		const headings = readFileSync(path.join(ROOT, 'docs/service-assumptions.md'), 'utf8').match(
			/^## A\d+:/gm,
		);
		expect(ids).toHaveLength(headings?.length ?? 0);
		expect(new Set(ids)).toEqual(new Set(ids.map((_, i) => `a${i + 1}`)));
	});
});
