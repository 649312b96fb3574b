import { drawText, textWidth } from './letters';
import { pagesOf } from './pages';
import { encodePng } from './png';
import { Raster, type Outline } from './raster';
import { pictureScene, type PictureOptions } from './scene';
import { smoothRoute, type Point, type Scene, type Shape } from './shapes';

/**
 * The picture as a PNG file: the same shapes the SVG has, drawn on pixels here (no browser, no
 * canvas, no Node module), which n8n's output panel shows as an image.
 */

/** The PNG and the characters of its text no font draws (drawn as empty boxes). */
export function renderPng(
	doc: unknown,
	options: PictureOptions = {},
): { png: Uint8Array; missing: string[] } {
	return drawPng(pictureScene(doc, options));
}

export function drawPng(scene: Scene): { png: Uint8Array; missing: string[] } {
	const { raster, missing } = rasterize(scene);
	return { png: encodePng(raster.width, raster.height, raster.rgb), missing };
}

/** The PNG, and the same cut into pages at most `pageWidth` wide when it is wider (pages.ts). */
export function drawPngPages(
	scene: Scene,
	pageWidth: number,
): { png: Uint8Array; pages: Uint8Array[]; missing: string[] } {
	const { raster, missing } = rasterize(scene);
	const { width, height, rgb } = raster;
	return {
		png: encodePng(width, height, rgb),
		pages: pagesOf(width, height, rgb, pageWidth),
		missing,
	};
}

/** The scene on pixels, and the characters of its text that no font draws. */
function rasterize(scene: Scene): { raster: Raster; missing: string[] } {
	const raster = new Raster(scene.width, scene.height);
	const missing = new Set<string>();
	for (const s of scene.shapes) draw(raster, s, 1, missing);
	return { raster, missing: [...missing] };
}

function draw(raster: Raster, s: Shape, alpha: number, missing: Set<string>): void {
	switch (s.kind) {
		case 'rect': {
			if (s.fill)
				raster.fill(
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
				raster.fill([[outer, inner.reverse()]], s.stroke, alpha);
			}
			return;
		}
		case 'circle': {
			raster.fill([[circle(s.cx, s.cy, s.r)]], s.fill, alpha);
			const w = s.strokeWidth ?? 1;
			if (s.stroke)
				raster.fill(
					[[circle(s.cx, s.cy, s.r + w / 2), circle(s.cx, s.cy, s.r - w / 2).reverse()]],
					s.stroke,
					alpha,
				);
			return;
		}
		case 'route':
			raster.fill(stroke(flatten(s.points), s.width, s.dash), s.stroke, alpha);
			return;
		case 'polygon':
			raster.fill([[s.points]], s.fill, alpha);
			return;
		case 'text': {
			const bold = s.bold === true;
			const width = s.anchor && s.anchor !== 'start' ? textWidth(s.text, s.size, bold) : 0;
			const x = s.anchor === 'middle' ? s.x - width / 2 : s.anchor === 'end' ? s.x - width : s.x;
			const style = { size: s.size, bold, colour: s.fill, alpha };
			for (const char of drawText(raster, s.text, { x, y: s.y }, style)) missing.add(char);
			return;
		}
		case 'group':
			for (const child of s.children) draw(raster, child, alpha * (s.opacity ?? 1), missing);
	}
}

function roundedRect(x: number, y: number, w: number, h: number, r: number): Point[] {
	const radius = Math.max(0, Math.min(r, w / 2, h / 2));
	if (radius === 0)
		return [
			{ x, y },
			{ x: x + w, y },
			{ x: x + w, y: y + h },
			{ x, y: y + h },
		];
	const corners = [
		[x + w - radius, y + radius, -90],
		[x + w - radius, y + h - radius, 0],
		[x + radius, y + h - radius, 90],
		[x + radius, y + radius, 180],
	];
	return corners.flatMap(([cx, cy, from]) =>
		Array.from({ length: 7 }, (_, i) => {
			const angle = ((from + i * 15) * Math.PI) / 180;
			return { x: cx + radius * Math.cos(angle), y: cy + radius * Math.sin(angle) };
		}),
	);
}

function circle(cx: number, cy: number, r: number): Point[] {
	return Array.from({ length: 36 }, (_, i) => {
		const angle = (i * Math.PI) / 18;
		return { x: cx + r * Math.cos(angle), y: cy + r * Math.sin(angle) };
	});
}

/** The smoothed route as short straight pieces. */
function flatten(points: Point[]): Point[] {
	const out = [points[0]];
	let from = points[0];
	for (const { to, control } of smoothRoute(points)) {
		if (!control) out.push(to);
		else
			for (let i = 1; i <= 8; i++) {
				const t = i / 8;
				const u = 1 - t;
				out.push({
					x: u * u * from.x + 2 * u * t * control.x + t * t * to.x,
					y: u * u * from.y + 2 * u * t * control.y + t * t * to.y,
				});
			}
		from = to;
	}
	return out;
}

/** A line `width` wide along the points, as one quadrilateral per piece and a disc at each bend. */
function stroke(points: Point[], width: number, dash?: [number, number]): Outline[] {
	const half = width / 2;
	const outlines: Outline[] = [];
	for (const run of dash ? dashes(points, dash) : [points]) {
		for (let i = 0; i < run.length - 1; i++) {
			const [a, b] = [run[i], run[i + 1]];
			const length = Math.hypot(b.x - a.x, b.y - a.y);
			if (length === 0) continue;
			const nx = (-(b.y - a.y) / length) * half;
			const ny = ((b.x - a.x) / length) * half;
			const quad = [
				{ x: a.x + nx, y: a.y + ny },
				{ x: b.x + nx, y: b.y + ny },
				{ x: b.x - nx, y: b.y - ny },
				{ x: a.x - nx, y: a.y - ny },
			];
			outlines.push([quad]);
			if (i > 0 && width > 2) outlines.push([circle(a.x, a.y, half)]);
		}
	}
	return outlines;
}

/** The points cut into the drawn parts of a dash pattern. */
function dashes(points: Point[], [on, off]: [number, number]): Point[][] {
	const runs: Point[][] = [];
	let current: Point[] = [points[0]];
	let left = on;
	let drawing = true;
	for (let i = 0; i < points.length - 1; i++) {
		let a = points[i];
		const b = points[i + 1];
		let length = Math.hypot(b.x - a.x, b.y - a.y);
		while (length > left) {
			const t = left / length;
			const cut = { x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t };
			if (drawing) runs.push([...current, cut]);
			current = [cut];
			drawing = !drawing;
			length -= left;
			left = drawing ? on : off;
			a = cut;
		}
		left -= length;
		if (drawing) current.push(b);
	}
	if (drawing && current.length > 1) runs.push(current);
	return runs;
}
