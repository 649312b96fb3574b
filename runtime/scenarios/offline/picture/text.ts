/**
 * Text for SVG without a browser to measure it: escaped for XML, cut to a number of characters
 * (a sans-serif character is about 6.5 px at 12 px), whole code points so an emoji is never split.
 */

/** Whether XML 1.0 allows a code point: tab, line breaks, and no other control character. */
function allowed(char: string): boolean {
	const code = char.codePointAt(0) ?? 0;
	if (code < 0x20) return code === 0x09 || code === 0x0a || code === 0x0d;
	// Lone surrogate halves (a pair is one code point here) and the two non-characters.
	return !(code >= 0xd800 && code <= 0xdfff) && code !== 0xfffe && code !== 0xffff;
}

export function escapeXml(text: string): string {
	return Array.from(text)
		.filter(allowed)
		.join('')
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/'/g, '&apos;');
}

/** At most `max` characters, the last an ellipsis when cut; one line. */
export function truncate(text: string, max: number): string {
	const chars = Array.from(text.replace(/\s+/g, ' ').trim());
	return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : chars.join('');
}

/** Words wrapped into at most `lines` lines of `width` characters; the last cut if it overflows. */
export function wrap(text: string, width: number, lines: number): string[] {
	const words = text.replace(/\s+/g, ' ').trim().split(' ');
	const out: string[] = [];
	let line = '';
	for (const word of words) {
		const next = line ? `${line} ${word}` : word;
		if (Array.from(next).length <= width || !line) {
			line = next;
			continue;
		}
		out.push(line);
		line = word;
		if (out.length === lines) break;
	}
	if (out.length < lines && line) out.push(line);
	const rest = words.join(' ').length > out.join(' ').length;
	return out.map((l, i) =>
		i === out.length - 1 && rest ? truncate(`${l} …`, width) : truncate(l, width),
	);
}

/** A number as written in the picture: 1234 → "1,234". */
export function count(n: number): string {
	return Math.round(n).toLocaleString('en-US');
}
