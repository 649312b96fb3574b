import type { Outline } from './raster';
import { smoothRoute, type Point } from './shapes';

/** The outlines the PNG fills for the picture's shapes (draw.ts): corners, discs, lines. */

export function roundedRect(x: number, y: number, w: number, h: number, r: number): Point[] {
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

export function circle(cx: number, cy: number, r: number): Point[] {
	return Array.from({ length: 36 }, (_, i) => {
		const angle = (i * Math.PI) / 18;
		return { x: cx + r * Math.cos(angle), y: cy + r * Math.sin(angle) };
	});
}

/** The smoothed route as short straight pieces. */
export function flatten(points: Point[]): Point[] {
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
export function stroke(points: Point[], width: number, dash?: [number, number]): Outline[] {
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
