import type { Point } from './shapes';

/**
 * RGB pixels to draw a picture on, with anti-aliased filled outlines (four sample rows per
 * pixel, exact coverage across), on which letters.ts lays glyph outlines: enough for boxes, arrows
 * and words, with no canvas, browser or native module. A raster may hold a band of rows of a
 * taller picture (from row `top`): shapes are given in the picture's coordinates and clipped.
 */

/** An outline of one or more rings, filled by the non-zero rule (a hole runs the other way). */
export type Outline = Point[][];

const SAMPLES = 4;

function parseColour(hex: string): [number, number, number] {
	const n = parseInt(hex.slice(1, 7), 16);
	return [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
}

export class Raster {
	readonly rgb: Uint8Array;
	private scratch?: Uint8Array;

	constructor(
		readonly width: number,
		readonly height: number,
		/** The picture's row that is this raster's first. */
		public top = 0,
	) {
		this.rgb = new Uint8Array(width * height * 3).fill(255);
	}

	/** The same pixels, all white again, for the band from picture row `top`. */
	moveTo(top: number): void {
		this.top = top;
		this.rgb.fill(255);
	}

	/** Lays `colour` over the pixels by a coverage mask (0..1) placed at (x0, y0). */
	blend(mask: Float32Array, x0: number, y0: number, w: number, colour: string, alpha: number) {
		const [r, g, b] = parseColour(colour);
		const h = mask.length / w;
		for (let y = 0; y < h; y++) {
			const py = y0 - this.top + y;
			if (py < 0 || py >= this.height) continue;
			for (let x = 0; x < w; x++) {
				const px = x0 + x;
				const a = Math.min(1, mask[y * w + x]) * alpha;
				if (a <= 0 || px < 0 || px >= this.width) continue;
				this.mix((py * this.width + px) * 3, r, g, b, a);
			}
		}
	}

	/**
	 * Fills outlines as one: where they overlap, the coverage is the larger, never the sum. Kept
	 * in a picture-wide scratch of bytes, reset where touched, as an arrow's pieces are small while
	 * the arrow may cross the whole picture.
	 */
	fill(outlines: Outline[], colour: string, alpha = 1): void {
		const pieces = outlines.flatMap((outline) => {
			const box = bounds(outline, 0, this.top, this.width, this.top + this.height);
			if (!box) return [];
			const one = new Float32Array(box.w * box.h);
			cover(outline, one, box.x, box.y, box.w, box.h);
			return [{ box, one }];
		});
		if (pieces.length === 1) {
			const [{ box, one }] = pieces;
			this.blend(one, box.x, box.y, box.w, colour, alpha);
			return;
		}
		const scratch = (this.scratch ??= new Uint8Array(this.width * this.height));
		const touched: number[] = [];
		for (const { box, one } of pieces)
			for (let y = 0; y < box.h; y++)
				for (let x = 0; x < box.w; x++) {
					const c = Math.min(255, Math.round(one[y * box.w + x] * 255));
					if (c <= 0) continue;
					const at = (box.y - this.top + y) * this.width + box.x + x;
					if (scratch[at] === 0) touched.push(at);
					if (c > scratch[at]) scratch[at] = c;
				}
		const [r, g, b] = parseColour(colour);
		for (const at of touched) {
			this.mix(at * 3, r, g, b, (scratch[at] / 255) * alpha);
			scratch[at] = 0;
		}
	}

	private mix(at: number, r: number, g: number, b: number, a: number): void {
		this.rgb[at] += (r - this.rgb[at]) * a;
		this.rgb[at + 1] += (g - this.rgb[at + 1]) * a;
		this.rgb[at + 2] += (b - this.rgb[at + 2]) * a;
	}
}

/** The whole pixels an outline reaches within the clip [left, right) × [top, bottom); undefined when none. */
export function bounds(outline: Outline, left: number, top: number, right: number, bottom: number) {
	let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
	for (const ring of outline)
		for (const p of ring) {
			if (p.x < minX) minX = p.x;
			if (p.x > maxX) maxX = p.x;
			if (p.y < minY) minY = p.y;
			if (p.y > maxY) maxY = p.y;
		}
	if (minX > maxX) return undefined;
	const x = Math.max(left, Math.floor(minX));
	const y = Math.max(top, Math.floor(minY));
	const w = Math.min(right, Math.ceil(maxX) + 1) - x;
	const h = Math.min(bottom, Math.ceil(maxY) + 1) - y;
	return w > 0 && h > 0 ? { x, y, w, h } : undefined;
}

/** Adds an outline's coverage to `mask` (w wide, h high, its corner at x0, y0). */
export function cover(
	outline: Outline,
	mask: Float32Array,
	x0: number,
	y0: number,
	w: number,
	h: number,
) {
	const edges = edgesOf(outline);
	// Edges by their top, taken in as the sample rows reach them and dropped once passed: a row
	// looks at the few edges it may cross, not all of the outline's.
	const order = Array.from({ length: edges.length / 5 }, (_, i) => i * 5).sort(
		(a, b) => edges[a] - edges[b],
	);
	let next = 0;
	// Counts instead of arrays' lengths: setting a length is a call into V8, a row at a time.
	const active: number[] = [];
	let live = 0;
	const xs: number[] = [];
	const dirs: number[] = [];
	// A span's whole pixels are added once per pixel row, as a step up and down summed across
	// the row (four sample rows' spans cost their ends, not their length).
	const steps = new Float32Array(w + 1);
	for (let row = 0; row < h * SAMPLES; row++) {
		const sy = y0 + (row + 0.5) / SAMPLES;
		while (next < order.length && edges[order[next]] <= sy) active[live++] = order[next++];
		let crossed = 0;
		let kept = 0;
		for (let k = 0; k < live; k++) {
			const e = active[k];
			if (sy >= edges[e + 1]) continue;
			active[kept++] = e;
			const x = edges[e + 2] + (sy - edges[e]) * edges[e + 3];
			// Insertion in order of x: a row crosses few edges.
			let i = crossed++;
			for (; i > 0 && xs[i - 1] > x; i--) {
				xs[i] = xs[i - 1];
				dirs[i] = dirs[i - 1];
			}
			xs[i] = x;
			dirs[i] = edges[e + 4];
		}
		live = kept;
		const line = Math.floor(row / SAMPLES) * w;
		let winding = 0;
		for (let i = 0; i < crossed - 1; i++) {
			winding += dirs[i];
			if (winding !== 0) span(mask, steps, line, w, xs[i] - x0, xs[i + 1] - x0);
		}
		if (row % SAMPLES === SAMPLES - 1) addSteps(mask, steps, line, w);
	}
}

/** Edges as [top y, bottom y, x at top, dx per y, winding], in one array (no garbage per row). */
function edgesOf(outline: Outline): number[] {
	const edges: number[] = [];
	for (const ring of outline)
		for (let i = 0; i < ring.length; i++) {
			const [a, b] = [ring[i], ring[(i + 1) % ring.length]];
			if (a.y === b.y) continue;
			const [top, bottom] = a.y < b.y ? [a, b] : [b, a];
			edges.push(
				top.y,
				bottom.y,
				top.x,
				(bottom.x - top.x) / (bottom.y - top.y),
				a.y < b.y ? 1 : -1,
			);
		}
	return edges;
}

/** One sample row's span [from, to): partial pixels at both ends, whole ones as a step. */
function span(
	mask: Float32Array,
	steps: Float32Array,
	line: number,
	w: number,
	from: number,
	to: number,
) {
	const a = Math.max(0, from);
	const b = Math.min(w, to);
	if (b <= a) return;
	const first = Math.floor(a);
	const last = Math.floor(b);
	const unit = 1 / SAMPLES;
	if (first === last) {
		mask[line + first] += (b - a) * unit;
		return;
	}
	mask[line + first] += (first + 1 - a) * unit;
	if (first + 1 < last) {
		steps[first + 1] += unit;
		steps[last] -= unit;
	}
	if (last < w) mask[line + last] += (b - last) * unit;
}

/** The row's steps summed across into its pixels, and cleared for the next row. */
function addSteps(mask: Float32Array, steps: Float32Array, line: number, w: number) {
	let level = 0;
	for (let x = 0; x < w; x++) {
		level += steps[x];
		steps[x] = 0;
		if (level !== 0) mask[line + x] += level;
	}
	steps[w] = 0;
}
