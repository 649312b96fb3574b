/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- build tooling: runs rsvg-convert once, never loaded by n8n */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { readPng } from './lib/png-read';

/**
 * `tsx scripts/glyph-atlas.ts`: writes runtime/scenarios/offline/picture/glyphs.ts, the letters
 * the PNG picture draws its text with (DejaVu Sans, a free font, at the sizes the picture uses),
 * rendered once here by librsvg's `rsvg-convert` so the picture needs no font or browser at run
 * time. Each glyph: its coverage in 16 levels, its offset from the pen and its advance.
 */

const STYLES = { r11: [11, 'normal'], r12: [12, 'normal'], b13: [13, 'bold'], b16: [16, 'bold'] };
export const CHARS =
	Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('') +
	'…·→×−≠“”‘’•–—°€£éèêàâäöüïîçñÉÖÜß';
const ROW = 40;
const BASE = 28;

/** A screenshot's size and RGBA pixels. */
function decodePng(png: Buffer): { width: number; height: number; rgba: Uint8Array } {
	const { width, height, channels, pixels } = readPng(png);
	if (channels !== 4) throw new Error('the screenshot is not RGBA');
	return { width, height, rgba: pixels };
}

function render(size: number, weight: string, dir: string) {
	const escape = (c: string) => c.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;');
	const rows = Array.from(CHARS).map((c, i) => {
		const y = i * ROW + BASE;
		const font = `font-family='DejaVu Sans' font-size='${size}' font-weight='${weight}' xml:space='preserve'`;
		return `<text x='10' y='${y}' ${font}>${escape(c)}</text><text x='110' y='${y}' ${font}>${escape(c)}${escape(c)}</text>`;
	});
	const height = CHARS.length * ROW;
	const svg = `<svg xmlns='http://www.w3.org/2000/svg' width='200' height='${height}'>${rows.join('')}</svg>`;
	writeFileSync(path.join(dir, 'a.svg'), svg);
	execFileSync('rsvg-convert', [path.join(dir, 'a.svg'), '-o', path.join(dir, 'a.png')]);
	return decodePng(readFileSync(path.join(dir, 'a.png')));
}

/** The ink of a cell: columns and rows with any coverage. */
function ink(img: ReturnType<typeof decodePng>, x0: number, x1: number, y0: number) {
	let left = Infinity;
	let right = -1;
	let top = Infinity;
	let bottom = -1;
	for (let y = y0; y < y0 + ROW; y++)
		for (let x = x0; x < x1; x++)
			if (img.rgba[(y * img.width + x) * 4 + 3] > 0) {
				left = Math.min(left, x);
				right = Math.max(right, x);
				top = Math.min(top, y);
				bottom = Math.max(bottom, y);
			}
	return { left, right, top, bottom };
}

function atlas(size: number, weight: string, dir: string): string {
	const img = render(size, weight, dir);
	const bytes: number[] = [];
	Array.from(CHARS).forEach((c, i) => {
		const y0 = i * ROW;
		const one = ink(img, 0, 100, y0);
		const two = ink(img, 100, 200, y0);
		// Advance: how far the second copy's ink sits from the first's; a space, DejaVu's 0.318 em.
		const advance = one.right < 0 ? 0.318 * size : two.right - 100 - one.right;
		const w = one.right < 0 ? 0 : one.right - one.left + 1;
		const h = one.right < 0 ? 0 : one.bottom - one.top + 1;
		const dx = one.right < 0 ? 0 : one.left - 10;
		const dy = one.right < 0 ? 0 : one.top - (y0 + BASE);
		bytes.push(w, h, dx + 128, dy + 128, Math.round(advance * 8));
		let nibble = -1;
		for (let y = 0; y < h; y++)
			for (let x = 0; x < w; x++) {
				const a = img.rgba[((one.top + y) * img.width + one.left + x) * 4 + 3] >> 4;
				if (nibble < 0) nibble = a;
				else {
					bytes.push((nibble << 4) | a);
					nibble = -1;
				}
			}
		if (nibble >= 0) bytes.push(nibble << 4);
	});
	return Buffer.from(bytes).toString('base64');
}

function main(): void {
	const dir = mkdtempSync(path.join(tmpdir(), 'mb-glyphs-'));
	try {
		const lines = Object.entries(STYLES).map(
			([name, [size, weight]]) => `\t${name}: '${atlas(size as number, weight as string, dir)}',`,
		);
		const out = [
			'/* Written by scripts/glyph-atlas.ts (DejaVu Sans, rendered by librsvg): do not edit. */',
			'',
			'/** The characters of every atlas, in order; others are drawn as "?". */',
			`export const GLYPH_CHARS = ${JSON.stringify(CHARS)};`,
			'',
			'/** Per glyph: width, height, x and y offset + 128, advance × 8; then 4-bit coverage. */',
			'export const ATLASES = {',
			...lines,
			'};',
			'',
		].join('\n');
		const target = path.resolve(__dirname, '../runtime/scenarios/offline/picture/glyphs.ts');
		writeFileSync(target, out);
		process.stdout.write(`wrote ${target} (${out.length} characters)\n`);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

main();
