import GithubSlugger from 'github-slugger';
import MarkdownIt from 'markdown-it';

// Markdown read as GitHub renders it: CommonMark with tables, raw HTML kept.
const parser = new MarkdownIt({ html: true });
type Token = ReturnType<MarkdownIt['parse']>[number];

/** Every token, inline children included, in document order. */
function tokens(text: string): Token[] {
	return parser.parse(text, {}).flatMap((t) => [t, ...(t.children ?? [])]);
}

/** `<a id="a39"></a>` and `<a name="…">`: anchors written by hand. */
function htmlAnchors(html: string): string[] {
	return [...html.matchAll(/<a\s[^>]*\b(?:id|name)="([^"]+)"/g)].map((m) => m[1]);
}

/**
 * The anchors a Markdown file offers: each heading's, slugged as GitHub does (github-slugger,
 * duplicates numbered in order), and those written by hand in HTML.
 */
export function markdownAnchors(text: string): Set<string> {
	const slugger = new GithubSlugger();
	const found = new Set<string>();
	const all = parser.parse(text, {});
	all.forEach((token, i) => {
		if (token.type === 'heading_open') {
			const words = (all[i + 1].children ?? [])
				.filter((c) => c.type === 'text' || c.type === 'code_inline')
				.map((c) => c.content)
				.join('');
			found.add(slugger.slug(words));
		}
		if (token.type === 'html_block' || token.type === 'html_inline')
			for (const id of htmlAnchors(token.content)) found.add(id);
		for (const child of token.children ?? [])
			if (child.type === 'html_inline') for (const id of htmlAnchors(child.content)) found.add(id);
	});
	return found;
}

/** Every link and image target of a Markdown file (code blocks and code spans excluded). */
export function markdownLinks(text: string): string[] {
	return tokens(text).flatMap((t) => {
		if (t.type === 'link_open') return [t.attrGet('href') ?? ''];
		if (t.type === 'image') return [t.attrGet('src') ?? ''];
		return [];
	});
}
