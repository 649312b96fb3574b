import { drawText, textWidth } from './letters';
import { circle, flatten, roundedRect, stroke } from './outlines';
import { PngWriter } from './png';
import { Raster, type Outline } from './raster';
import { pictureScene, type PictureOptions } from './scene';
import type { Scene, Shape } from './shapes';

/**
 * The picture as a PNG file: the same shapes the SVG has, drawn on pixels here (no browser, no
 * canvas, no Node module), which n8n's output panel shows as an image. Drawn a band of rows at a
 * time into one small raster, each band compressed as it is done: a 60-state picture is 1,600 ×
 * 9,600 px, and in a fresh process touching its 46 MB once cost more than drawing it.
 */

/** Rows per band: a band of a 1,600 px wide picture is 1.2 MB. */
const BAND = 256;

type TextShape = Extract<Shape, { kind: 'text' }>;

/** A shape as the rasterizer draws it: outlines to fill, or a line of text; with its rows. */
type Op = { top: number; bottom: number; alpha: number } & (
	| { kind: 'fill'; outlines: Outline[]; colour: string }
	| { kind: 'text'; text: TextShape }
);

/** The PNG and the characters of its text no font draws (drawn as empty boxes). */
export function renderPng(
	doc: unknown,
	options: PictureOptions = {},
): { png: Uint8Array; missing: string[] } {
	return drawPng(pictureScene(doc, options));
}

export function drawPng(scene: Scene): { png: Uint8Array; missing: string[] } {
	const { png, missing } = drawPngPages(scene, Infinity);
	return { png, missing };
}

/**
 * The PNG, and the same cut into pages side by side, each at most `pageWidth` wide, when it is
 * wider: n8n's output panel scales an image into its width (about 800 px), so a 1,700 px diagram
 * shown whole has its 12 px text at 5 px; a page keeps it at its size.
 */
export function drawPngPages(
	scene: Scene,
	pageWidth: number,
	band = BAND,
): { png: Uint8Array; pages: Uint8Array[]; missing: string[] } {
	const { width, height } = scene;
	const whole = new PngWriter(width, height);
	const pages = pageColumns(width, pageWidth).map(([x0, w]) => ({
		x0,
		png: new PngWriter(w, height),
	}));
	const missing = rasterize(scene, band, (raster, rows) => {
		whole.addRows(raster.rgb, width, 0, rows);
		for (const page of pages) page.png.addRows(raster.rgb, width, page.x0, rows);
	});
	return { png: whole.finish(), pages: pages.map((p) => p.png.finish()), missing };
}

/** Each page's first column and width; none when the picture fits in one. */
function pageColumns(width: number, most: number): Array<[number, number]> {
	if (width <= most) return [];
	const each = Math.ceil(width / Math.ceil(width / most));
	const columns: Array<[number, number]> = [];
	for (let x0 = 0; x0 < width; x0 += each) columns.push([x0, Math.min(each, width - x0)]);
	return columns;
}

/**
 * The scene drawn band after band, each handed to `done` (its first `rows` rows drawn); returns
 * the characters of its text that no font draws.
 */
function rasterize(
	scene: Scene,
	band: number,
	done: (raster: Raster, rows: number) => void,
): string[] {
	const ops: Op[] = [];
	for (const s of scene.shapes) opsOf(s, 1, ops);
	const raster = new Raster(scene.width, Math.min(band, scene.height));
	const missing = new Set<string>();
	for (let top = 0; top < scene.height; top += band) {
		if (top > 0) raster.moveTo(top);
		const bottom = top + band;
		for (const op of ops) {
			if (op.bottom < top || op.top >= bottom) continue;
			if (op.kind === 'fill') raster.fill(op.outlines, op.colour, op.alpha);
			else for (const char of drawLine(raster, op.text, op.alpha)) missing.add(char);
		}
		done(raster, Math.min(band, scene.height - top));
	}
	return [...missing];
}

function drawLine(raster: Raster, s: TextShape, alpha: number): Set<string> {
	const bold = s.bold === true;
	const width = s.anchor && s.anchor !== 'start' ? textWidth(s.text, s.size, bold) : 0;
	const x = s.anchor === 'middle' ? s.x - width / 2 : s.anchor === 'end' ? s.x - width : s.x;
	return drawText(raster, s.text, { x, y: s.y }, { size: s.size, bold, colour: s.fill, alpha });
}

/** Adds the ops that draw `s`, in drawing order. */
function opsOf(s: Shape, alpha: number, ops: Op[]): void {
	const fill = (outlines: Outline[], colour: string, a: number) => {
		let [top, bottom] = [Infinity, -Infinity];
		for (const outline of outlines)
			for (const ring of outline)
				for (const p of ring) {
					if (p.y < top) top = p.y;
					if (p.y > bottom) bottom = p.y;
				}
		if (top <= bottom) ops.push({ kind: 'fill', outlines, colour, alpha: a, top, bottom });
	};
	switch (s.kind) {
		case 'rect': {
			if (s.fill)
				fill(
					[[roundedRect(s.x, s.y, s.width, s.height, s.radius)]],
					s.fill,
					alpha * (s.fillOpacity ?? 1),
				);
			const w = s.strokeWidth ?? 1;
			if (s.stroke) {
				const outer = roundedRect(
					s.x - w / 2,
					s.y - w / 2,
					s.width + w,
					s.height + w,
					s.radius + w / 2,
				);
				const inner = roundedRect(
					s.x + w / 2,
					s.y + w / 2,
					s.width - w,
					s.height - w,
					Math.max(0, s.radius - w / 2),
				);
				fill([[outer, inner.reverse()]], s.stroke, alpha);
			}
			return;
		}
		case 'circle': {
			fill([[circle(s.cx, s.cy, s.r)]], s.fill, alpha);
			const w = s.strokeWidth ?? 1;
			if (s.stroke)
				fill(
					[[circle(s.cx, s.cy, s.r + w / 2), circle(s.cx, s.cy, s.r - w / 2).reverse()]],
					s.stroke,
					alpha,
				);
			return;
		}
		case 'route':
			fill(stroke(flatten(s.points), s.width, s.dash), s.stroke, alpha);
			return;
		case 'polygon':
			fill([[s.points]], s.fill, alpha);
			return;
		case 'text':
			// Glyphs reach above the baseline by about the size, below by less: a margin for any script.
			ops.push({ kind: 'text', text: s, alpha, top: s.y - 2 * s.size, bottom: s.y + s.size });
			return;
		case 'group':
			for (const child of s.children) opsOf(child, alpha * (s.opacity ?? 1), ops);
	}
}
