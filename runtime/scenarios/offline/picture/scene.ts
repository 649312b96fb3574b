import { edgeText, scenarioGraph, type EdgeKind, type ScenarioGraph, type StateBox } from './graph';
import { layoutGraph, type Layout, type Placed, type Routed } from './layout';
import type { Point, Scene, Shape } from './shapes';
import { heightOf, node } from './boxes';
import { count, truncate } from './text';
import { trafficOverlay, type Overlay, type Traffic } from './traffic';

/**
 * A scenario as a picture: boxes are states (name, first message, what they ask, call or do),
 * arrows the graph's transitions, placed by dagre. With a period's traffic, boxes are shaded by
 * conversations entered, arrows as wide as they were taken, drop-off in red.
 */

export interface PictureOptions {
	traffic?: Traffic;
}

const COLOURS: Record<EdgeKind, string> = {
	start: '#1a202c',
	on: '#4a5568',
	keyword: '#6b46c1',
	capture: '#2f855a',
	menu: '#2c7a7b',
	giveUp: '#c53030',
	after: '#718096',
	choose: '#b7791f',
	split: '#c05621',
	call: '#2b6cb0',
	end: '#1a202c',
};
const DASHED: ReadonlySet<EdgeKind> = new Set(['giveUp', 'after', 'keyword']);
const DASH: [number, number] = [6, 4];
const HEADER = 40;
const INK = '#1a202c';
/**
 * Top to bottom, long arrows into a hand-off in lanes on the right (lanes.ts); left to right when
 * that comes out more than twice as wide as tall.
 */
function pictureLayout(graph: ScenarioGraph, traffic: boolean): Layout {
	const height = (box: StateBox) => heightOf(box, traffic);
	const down = layoutGraph(graph, { height, lanes: true });
	if (down.width <= 2 * down.height) return down;
	const across = layoutGraph(graph, { height, rankdir: 'LR' });
	return across.width * across.height <= 1.2 * down.width * down.height ? across : down;
}

export function pictureScene(doc: unknown, options: PictureOptions = {}): Scene {
	const graph = scenarioGraph(doc);
	const traffic = options.traffic ? trafficOverlay(options.traffic, graph) : undefined;
	const layout = pictureLayout(graph, traffic !== undefined);
	const top = HEADER + (traffic ? 18 : 0);
	const { id, version } = doc as { id?: unknown; version?: unknown };
	const title = `${String(id ?? 'scenario')}${version === undefined ? '' : ` v${String(version)}`}`;
	const shapes: Shape[] = [
		{ kind: 'text', x: 20, y: 26, text: truncate(title, 80), size: 16, bold: true, fill: INK },
	];
	if (traffic) shapes.push(legend(traffic));
	const moved = (n: Placed) => ({ ...n, y: n.y + top });
	const routed = layout.edges.map((e) => ({
		...e,
		points: e.points.map((p) => ({ x: p.x, y: p.y + top })),
		labelY: e.labelY + top,
	}));
	shapes.push(...routed.map((e) => arrow(e, traffic)));
	shapes.push(...layout.nodes.map((n) => node(moved(n), n.box && traffic?.state(n.id))));
	shapes.push(...routed.flatMap((e) => arrowLabel(e, traffic)));
	const width = Math.ceil(Math.max(layout.width, 420));
	return { width, height: Math.ceil(layout.height + top), title, shapes };
}

function legend(traffic: Overlay): Shape {
	const text =
		`Traffic: box shade = conversations entered (most ${count(traffic.mostEntered)}); ` +
		`arrow width = times taken (most ${count(traffic.mostTaken)}); ` +
		'red = dropped off (their last state in the period)';
	return { kind: 'text', x: 20, y: 46, text, size: 11, fill: '#4a5568' };
}

const round = (n: number) => Math.round(n * 10) / 10;

/** The arrow's line stops where its head begins; the head keeps in proportion to its width. */
function arrow(edge: Routed, traffic: Overlay | undefined): Shape {
	const seen = traffic?.edges.get(edge.id);
	const width = seen?.width ?? 1.5;
	const colour = COLOURS[edge.kind];
	const points = edge.points.map((p) => ({ x: round(p.x), y: round(p.y) }));
	const end = points[points.length - 1];
	const before = points[points.length - 2] ?? end;
	const length = Math.hypot(end.x - before.x, end.y - before.y) || 1;
	const [ux, uy] = [(end.x - before.x) / length, (end.y - before.y) / length];
	const head = 9 + width;
	const back = Math.min(head, length);
	const base = { x: round(end.x - ux * back), y: round(end.y - uy * back) };
	const half = head * 0.45;
	const tip: Point[] = [
		end,
		{ x: round(base.x - uy * half), y: round(base.y + ux * half) },
		{ x: round(base.x + uy * half), y: round(base.y - ux * half) },
	];
	points[points.length - 1] = base;
	const dash = DASHED.has(edge.kind) ? DASH : undefined;
	return {
		kind: 'group',
		attrs: { 'data-edge': edge.id },
		opacity: seen && seen.count === 0 ? 0.45 : undefined,
		children: [
			{ kind: 'route', points, stroke: colour, width, dash },
			{ kind: 'polygon', points: tip, fill: colour },
		],
	};
}

function arrowLabel(edge: Routed, traffic: Overlay | undefined): Shape[] {
	const seen = traffic?.edges.get(edge.id);
	const words = truncate(edgeText(edge), 40);
	const text = seen?.labelled ? `${words} ×${count(seen.count)}` : words;
	if (!text) return [];
	const w = Array.from(text).length * 6.2 + 8;
	const { labelX: x, labelY: y } = edge;
	const fill = edge.kind === 'on' ? '#2d3748' : COLOURS[edge.kind];
	return [
		{
			kind: 'rect',
			x: x - w / 2,
			y: y - 9,
			width: w,
			height: 17,
			radius: 3,
			fill: '#ffffff',
			fillOpacity: 0.9,
		},
		{ kind: 'text', x, y: y + 4, text, size: 11, fill, anchor: 'middle' },
	];
}
