import type { Glyph } from 'opentype.js';

import { getOrCreate } from '../../../per-process';
import type { LoadedFont } from './fonts';
import { cover, type Outline, type Raster } from './raster';
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

function outlineOf(glyph: Glyph, x: number, size: number): Point[][] {
	const rings: Point[][] = [];
	let ring: Point[] = [];
	let at = { x: 0, y: 0 };
	const curve = (steps: number, point: (t: number) => Point) => {
		for (let i = 1; i <= steps; i++) ring.push(point(i / steps));
	};
	for (const c of glyph.getPath(x, 0, size).commands) {
		if (c.type === 'M') {
			if (ring.length > 2) rings.push(ring);
			ring = [{ x: c.x, y: c.y }];
		} else if (c.type === 'L') ring.push({ x: c.x, y: c.y });
		else if (c.type === 'Q') {
			const from = at;
			curve(4, (t) => bezier([from.x, c.x1, c.x], [from.y, c.y1, c.y], t));
		} else if (c.type === 'C') {
			const from = at;
			curve(6, (t) => bezier([from.x, c.x1, c.x2, c.x], [from.y, c.y1, c.y2, c.y], t));
		}
		if (c.type !== 'Z') at = { x: c.x, y: c.y };
	}
	if (ring.length > 2) rings.push(ring);
	return rings;
}

/** A point of a quadratic or cubic Bézier curve (de Casteljau). */
function bezier(xs: number[], ys: number[], t: number): Point {
	const step = (v: number[]): number[] => v.slice(1).map((b, i) => v[i] + (b - v[i]) * t);
	let [x, y] = [xs, ys];
	while (x.length > 1) [x, y] = [step(x), step(y)];
	return { x: x[0], y: y[0] };
}

/** A glyph's coverage with its pen at (frac, 0), kept for the next time. */
function maskOf(font: LoadedFont, glyph: Glyph, size: number, frac: number): Mask | undefined {
	const key = `${font.file}:${glyph.index}:${size}:${frac}`;
	if (masks.size > 20000) masks.clear();
	return (
		getOrCreate(masks, key, () => {
			const outline: Outline = outlineOf(glyph, frac, size);
			const points = outline.flat();
			if (points.length === 0) return null;
			const x = Math.floor(Math.min(...points.map((p) => p.x)));
			const y = Math.floor(Math.min(...points.map((p) => p.y)));
			const w = Math.ceil(Math.max(...points.map((p) => p.x))) + 1 - x;
			const h = Math.ceil(Math.max(...points.map((p) => p.y))) + 1 - y;
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
