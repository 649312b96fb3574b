import type { Glyph } from 'opentype.js';

import { getOrCreate } from '../../../per-process';
import type { LoadedFont } from './fonts';
import { bounds, cover, type Outline, type Raster } from './raster';
import { shapeLine } from './shaping';
import type { Point } from './shapes';

/**
 * Text for the PNG picture: each line shaped (shaping.ts), each glyph's outline filled once per
 * font, size and quarter-pixel offset and kept (labels repeat letters), then laid on the pixels.
 * A character no font draws is an empty box, and returned so the caller can name it.
 */

interface Mask {
	coverage: Float32Array;
	x: number;
	y: number;
	w: number;
}

/** Kept per process; cleared past a bound (a long-running n8n draws many pictures). */
const masks = new Map<string, Mask | null>();

/** A glyph's outline at `size` with its pen at (0, 0): curves cut into straight pieces. */
function outlineOf(glyph: Glyph, size: number): Point[][] {
	const rings: Point[][] = [];
	let ring: Point[] = [];
	let [ax, ay] = [0, 0];
	for (const c of glyph.getPath(0, 0, size).commands) {
		if (c.type === 'M') {
			if (ring.length > 2) rings.push(ring);
			ring = [{ x: c.x, y: c.y }];
		} else if (c.type === 'L') ring.push({ x: c.x, y: c.y });
		else if (c.type === 'Q')
			for (let i = 1; i <= 4; i++) {
				const [t, u] = [i / 4, 1 - i / 4];
				const [p, q, r] = [u * u, 2 * u * t, t * t];
				ring.push({ x: p * ax + q * c.x1 + r * c.x, y: p * ay + q * c.y1 + r * c.y });
			}
		else if (c.type === 'C')
			for (let i = 1; i <= 6; i++) {
				const [t, u] = [i / 6, 1 - i / 6];
				const [p, q, r, s] = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t];
				ring.push({
					x: p * ax + q * c.x1 + r * c.x2 + s * c.x,
					y: p * ay + q * c.y1 + r * c.y2 + s * c.y,
				});
			}
		if (c.type !== 'Z') [ax, ay] = [c.x, c.y];
	}
	if (ring.length > 2) rings.push(ring);
	return rings;
}

/** Kept per process with the masks: a glyph's outline serves its four quarter-pixel offsets. */
const outlines = new Map<string, Point[][]>();

/** A glyph's coverage with its pen at (frac, 0), kept for the next time. */
function maskOf(font: LoadedFont, glyph: Glyph, size: number, frac: number): Mask | undefined {
	const glyphKey = `${font.file}:${glyph.index}:${size}`;
	if (masks.size > 20000) {
		masks.clear();
		outlines.clear();
	}
	return (
		getOrCreate(masks, `${glyphKey}:${frac}`, () => {
			const at0 = getOrCreate(outlines, glyphKey, () => outlineOf(glyph, size));
			const outline: Outline = at0.map((ring) => ring.map((p) => ({ x: p.x + frac, y: p.y })));
			const box = bounds(outline, -Infinity, -Infinity, Infinity, Infinity);
			if (!box) return null;
			const { x, y, w, h } = box;
			const coverage = new Float32Array(w * h);
			cover(outline, coverage, x, y, w, h);
			return { coverage, x, y, w };
		}) ?? undefined
	);
}

export function textWidth(text: string, size: number, bold: boolean): number {
	return shapeLine(text, size, bold).width;
}

/** Draws `text` with its baseline at y, starting at x; returns the characters no font has. */
export function drawText(
	raster: Raster,
	text: string,
	at: Point,
	style: { size: number; bold: boolean; colour: string; alpha: number },
): Set<string> {
	const { size, bold, colour, alpha } = style;
	const line = shapeLine(text, size, bold);
	const baseline = Math.round(at.y);
	for (const g of line.placed) {
		const pen = at.x + g.x;
		if (!g.font || !g.glyph) {
			emptyBox(raster, pen, baseline, size, colour, alpha);
			continue;
		}
		const whole = Math.floor(pen);
		const frac = Math.round((pen - whole) * 4) / 4;
		const mask = maskOf(g.font, g.glyph, size, frac);
		if (!mask) continue;
		raster.blend(mask.coverage, whole + mask.x, baseline + mask.y, mask.w, colour, alpha);
		// No bold face for this script: the same glyph again, a little to the right.
		if (g.font.fauxBold)
			raster.blend(
				mask.coverage,
				whole + mask.x + 1,
				baseline + mask.y,
				mask.w,
				colour,
				alpha * 0.6,
			);
	}
	return line.missing;
}

function emptyBox(
	raster: Raster,
	x: number,
	y: number,
	size: number,
	colour: string,
	alpha: number,
) {
	const [w, h] = [size * 0.5, size * 0.7];
	const ring = (inset: number): Point[] => [
		{ x: x + 1 + inset, y: y - h + inset },
		{ x: x + 1 + w - inset, y: y - h + inset },
		{ x: x + 1 + w - inset, y: y - inset },
		{ x: x + 1 + inset, y: y - inset },
	];
	raster.fill([[ring(0), ring(1).reverse()]], colour, alpha);
}
