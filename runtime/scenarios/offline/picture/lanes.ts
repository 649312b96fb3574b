import { getOrCreate } from '../../../per-process';
import { START, edgeText, type GraphEdge } from './graph';

/**
 * Long arrows into a hand-off (a state many others lead to: a person, a main menu), drawn in
 * lanes on the picture's right instead of by dagre. dagre keeps each such arrow straight down the
 * whole picture and shifts the main path aside for the next one: a 60-state scenario with a
 * hand-off every fifth state came out 1,600 px wide, mostly white, and each arrow's chain of
 * dummy nodes was most of dagre's time. In a lane, each is a line out of its state's right side,
 * along the lane, into the hand-off's right side; lanes nearer the boxes for shorter arrows, so
 * an arrow's way out crosses no other lane of the same hand-off.
 */

/** States leading to a target that make it a hand-off. */
const SOURCES = 3;
/** Ranks (estimated) an arrow must span to go in a lane: a short one stays dagre's. */
const LONG = 3;
/** Between the drawing and the first lane; between lanes (apart enough for a dashed one to read). */
const MARGIN = 16;
const GAP = 10;
/** Between two arrows out of one box: a label's height and a little. */
const SLOT = 20;
/** A corner's rounding, as the picture smooths a route through its bend points. */
const CORNER = 10;

/**
 * Ranks as a longest path from the start, the arrows that go back up left out: dagre's ranks
 * differ, but an estimate is enough to tell a long arrow from a short one before laying out.
 */
function ranks(edges: readonly GraphEdge[]): Map<string, number> {
	const out = new Map<string, GraphEdge[]>();
	for (const e of edges) if (e.source !== e.target) getOrCreate(out, e.source, () => []).push(e);
	const done = new Set<string>();
	const order: string[] = [];
	const visit = (v: string) => {
		done.add(v);
		for (const e of out.get(v) ?? []) if (!done.has(e.target)) visit(e.target);
		order.push(v);
	};
	visit(START);
	for (const e of edges) if (!done.has(e.source)) visit(e.source);
	order.reverse(); // now every arrow that does not go back points later in the order
	const index = new Map(order.map((v, i) => [v, i]));
	const rank = new Map<string, number>();
	for (const v of order) {
		const r = rank.get(v) ?? 0;
		rank.set(v, r);
		for (const e of out.get(v) ?? [])
			if ((index.get(e.target) ?? 0) > (index.get(v) ?? 0))
				rank.set(e.target, Math.max(rank.get(e.target) ?? 0, r + 1));
	}
	return rank;
}

/**
 * The arrows to draw in lanes (their ids): into a target led to from SOURCES states or more,
 * spanning LONG ranks or more; the shortest into each target stays dagre's, so the target keeps
 * its rank below (or above) the states leading to it.
 */
export function laneEdges(edges: readonly GraphEdge[]): Set<string> {
	const into = new Map<string, GraphEdge[]>();
	for (const e of edges)
		if (e.source !== e.target && e.source !== START) getOrCreate(into, e.target, () => []).push(e);
	const lanes = new Set<string>();
	let rank: Map<string, number> | undefined;
	for (const [target, arrows] of into) {
		if (new Set(arrows.map((e) => e.source)).size < SOURCES) continue;
		rank ??= ranks(edges);
		const span = (e: GraphEdge) => Math.abs((rank?.get(target) ?? 0) - (rank?.get(e.source) ?? 0));
		const long = arrows.filter((e) => span(e) >= LONG);
		if (long.length === arrows.length)
			long.splice(long.indexOf(long.reduce((a, b) => (span(b) < span(a) ? b : a))), 1);
		for (const e of long) lanes.add(e.id);
	}
	return lanes;
}

type Point = { x: number; y: number };
/** A placed box, as layout.ts has it (which imports this module). */
type Placed = Point & { id: string; width: number; height: number };
type Routed = GraphEdge & { points: Point[]; labelX: number; labelY: number };

/** Low on a state's right side (a loop and its label sit at the middle); a small box's middle. */
const sideY = (box: Placed) => (box.height >= 44 ? box.y + box.height - 8 : box.y + box.height / 2);

/** Whether another box stands between `box`'s right side, at height y, and the lane. */
const blocked = (box: Placed, boxes: readonly Placed[], lane: number, y: number) =>
	boxes.some(
		(b) => b !== box && b.x >= box.x + box.width && b.x < lane && b.y <= y && b.y + b.height >= y,
	);

/**
 * Where the `slot`-th arrow out of a box leaves it: the first by its right side, the others (and
 * all when another box is in the way) by its bottom, each further left and lower, its label
 * under its line. Slot 0 goes to the farthest lane, so no way out crosses another's lane.
 */
function exit(box: Placed, boxes: readonly Placed[], lane: number, slot: number): Point[] {
	const [right, bottom, y] = [box.x + box.width, box.y + box.height, sideY(box)];
	const free = !blocked(box, boxes, lane, y);
	if (slot === 0 && free) return [{ x: right, y }];
	const n = free ? slot - 1 : slot;
	const x = Math.max(box.x + 8, right - 16 - 16 * n);
	// Below the side exit's label when there is one.
	return [
		{ x, y: bottom },
		{ x, y: bottom + (free ? 14 : 10) + SLOT * n },
	];
}

/** Where arrows enter a box: by its right side, or its bottom when another box is in the way. */
function entry(box: Placed, boxes: readonly Placed[], lane: number, nth: () => number): Point[] {
	const [right, bottom, y] = [box.x + box.width, box.y + box.height, sideY(box)];
	if (!blocked(box, boxes, lane, y)) return [{ x: right, y }];
	// The nth box entered from below: its line apart from the others'.
	const under = bottom + 10 + 8 * nth();
	return [
		{ x: right - 16, y: under },
		{ x: right - 16, y: bottom },
	];
}

/** Extra points either side of each bend, so the smoothing rounds a corner, not a whole leg. */
function cornered(points: readonly Point[]): Point[] {
	const out: Point[] = [points[0]];
	for (let i = 1; i < points.length - 1; i++) {
		const [a, p, b] = [points[i - 1], points[i], points[i + 1]];
		const near = (q: Point) => {
			const d = Math.hypot(q.x - p.x, q.y - p.y) || 1;
			const t = Math.min(CORNER, d / 2) / d;
			return { x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t };
		};
		out.push(near(a), p, near(b));
	}
	out.push(points[points.length - 1]);
	return out;
}

/**
 * The lane arrows routed right of `right` (the drawing's right edge), shorter ones nearer; with
 * the drawing's new right edge and their lowest point. Each label sits on the arrow's way out, beside its state.
 */
export function routeLanes(
	edges: readonly GraphEdge[],
	boxes: readonly Placed[],
	right: number,
): { routed: Routed[]; right: number; bottom: number } {
	const byId = new Map(boxes.map((b) => [b.id, b]));
	const middle = (id: string) => {
		const b = byId.get(id);
		return b ? b.y + b.height / 2 : 0;
	};
	const length = (e: GraphEdge) => Math.abs(middle(e.target) - middle(e.source));
	const sorted = [...edges].sort((a, b) => length(a) - length(b));
	// The farthest lane out of a box takes slot 0 (its side): slots count down as lanes go out.
	const slots = new Map<string, number>();
	for (const e of sorted) slots.set(e.source, (slots.get(e.source) ?? 0) + 1);
	const below = new Map<string, number>();
	const routed = sorted.flatMap((edge, i): Routed[] => {
		const [from, to] = [byId.get(edge.source), byId.get(edge.target)];
		if (!from || !to) return [];
		const lane = right + MARGIN + GAP * i;
		const slot = (slots.get(edge.source) ?? 1) - 1;
		slots.set(edge.source, slot);
		const out = exit(from, boxes, lane, slot);
		const into = entry(to, boxes, lane, () => getOrCreate(below, edge.target, () => below.size));
		const [leave, reach] = [out[out.length - 1], into[0]];
		const points = cornered([...out, { x: lane, y: leave.y }, { x: lane, y: reach.y }, ...into]);
		const w = Math.min(edgeText(edge).length, 40) * 6.2 + 8;
		// Under the line, beside the state: above it may be the state's loop.
		return [{ ...edge, points, labelX: leave.x + 4 + w / 2, labelY: leave.y + 11 }];
	});
	return {
		routed,
		right: sorted.length ? right + MARGIN + GAP * (sorted.length - 1) : right,
		// A way in or out below the lowest box.
		bottom: Math.max(0, ...routed.flatMap((e) => e.points.map((p) => p.y))),
	};
}
