import { getOrCreate } from '../../../per-process';
import { ATLASES, GLYPH_CHARS } from './glyphs';
import type { Raster } from './raster';

/**
 * Text for the PNG picture from the glyph atlas (glyphs.ts): each character's coverage placed at
 * the pen and the pen moved by its advance. A character the atlas lacks is drawn as "?".
 */

interface Glyph {
	width: number;
	height: number;
	dx: number;
	dy: number;
	advance: number;
	coverage: Float32Array;
}

type Style = keyof typeof ATLASES;
const decoded = new Map<Style, Map<string, Glyph>>();

/** The atlas's bytes: `atob` is in Node.js and every browser the picture runs in. */
const base64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** A style's glyphs, decoded on first use. */
const atlas = (style: Style) => getOrCreate(decoded, style, () => decodeAtlas(style));

function decodeAtlas(style: Style): Map<string, Glyph> {
	const bytes = base64(ATLASES[style]);
	const glyphs = new Map<string, Glyph>();
	let at = 0;
	for (const char of Array.from(GLYPH_CHARS)) {
		const [width, height, dx, dy, advance] = bytes.subarray(at, at + 5);
		at += 5;
		const coverage = new Float32Array(width * height);
		for (let i = 0; i < coverage.length; i++) {
			const byte = bytes[at + (i >> 1)];
			coverage[i] = ((i & 1 ? byte & 0x0f : byte >> 4) * 17) / 255;
		}
		at += Math.ceil(coverage.length / 2);
		glyphs.set(char, { width, height, dx: dx - 128, dy: dy - 128, advance: advance / 8, coverage });
	}
	return glyphs;
}

/** The atlas nearest a font size and weight (italic is drawn upright). */
export function styleFor(size: number, bold: boolean): Style {
	if (bold) return size >= 15 ? 'b16' : 'b13';
	return size >= 11.5 ? 'r12' : 'r11';
}

function glyphs(text: string, style: Style): Glyph[] {
	const all = atlas(style);
	const unknown = all.get('?') as Glyph;
	return Array.from(text).map((char) => all.get(char) ?? unknown);
}

export function textWidth(text: string, style: Style): number {
	return glyphs(text, style).reduce((w, g) => w + g.advance, 0);
}

/** Draws `text` with its baseline at y, starting at x. */
export function drawText(
	raster: Raster,
	text: string,
	x: number,
	y: number,
	style: Style,
	colour: string,
	alpha: number,
): void {
	let pen = x;
	for (const g of glyphs(text, style)) {
		if (g.width > 0)
			raster.blend(
				g.coverage,
				Math.round(pen + g.dx),
				Math.round(y + g.dy),
				g.width,
				colour,
				alpha,
			);
		pen += g.advance;
	}
}
