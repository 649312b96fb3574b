import { Graph, layout } from '@dagrejs/dagre';

import {
	ANY,
	END,
	START,
	edgeText,
	type GraphEdge,
	type ScenarioGraph,
	type StateBox,
} from './graph';
import { laneEdges, routeLanes } from './lanes';

/**
 * Places the boxes and routes the arrows with dagre (top to bottom, arrow labels given room of
 * their own), so the picture needs no hand arrangement, for the examples and for 60 states alike.
 * The studio draws the result with React Flow, the SVG picture as text.
 */

export interface Placed {
	id: string;
	x: number;
	y: number;
	width: number;
	height: number;
	box?: StateBox;
}

export interface Routed extends GraphEdge {
	points: Array<{ x: number; y: number }>;
	labelX: number;
	labelY: number;
}

export interface Layout {
	nodes: Placed[];
	edges: Routed[];
	/** The drawing's size, margins included. */
	width: number;
	height: number;
	ms: number;
}

const BOX_WIDTH = 240;
const LINE = 17;

/** A box's height: its name, up to three messages of up to two lines, its notes. */
export function boxHeight(box: StateBox): number {
	const messages = box.messages
		.slice(0, 3)
		.reduce((h, m) => h + (m.length > 34 ? 2 : 1) * LINE + 6, 0);
	return (
		34 + messages + Math.min(box.notes.length, 3) * LINE + (box.messages.length > 3 ? LINE : 0) + 8
	);
}

export interface LayoutOptions {
	/** A box's height: the studio's by default, the picture passes its own. */
	height?: (box: StateBox) => number;
	/** Top to bottom (default) or left to right, which keeps a wide scenario readable. */
	rankdir?: 'TB' | 'LR';
	/** Long arrows into a hand-off drawn in lanes on the right (lanes.ts): top to bottom only. */
	lanes?: boolean;
}

export function layoutGraph(graph: ScenarioGraph, options: LayoutOptions = {}): Layout {
	const began = performance.now();
	const rankdir = options.rankdir ?? 'TB';
	const names = new Set(graph.boxes.map((b) => b.name));
	const drawn = graph.edges.filter((e) => known(e.source, names) && known(e.target, names));
	const laned = options.lanes && rankdir === 'TB' ? laneEdges(drawn) : new Set<string>();
	const g = dagreGraph(graph, drawn, laned, { ...options, rankdir });
	layout(g);
	const nodes: Placed[] = g.nodes().map((id) => {
		const n = g.node(id) as unknown as Placed & { box?: StateBox };
		return {
			id,
			x: n.x - n.width / 2,
			y: n.y - n.height / 2,
			width: n.width,
			height: n.height,
			box: n.box,
		};
	});
	const dagres: Routed[] = drawn.flatMap((edge) => {
		if (edge.source === edge.target)
			return [selfLoop(edge, g.node(edge.source) as unknown as Placed)];
		if (laned.has(edge.id)) return [];
		const e = g.edge({ v: edge.source, w: edge.target, name: edge.id }) as unknown as {
			points: Array<{ x: number; y: number }>;
			x?: number;
			y?: number;
		};
		const middle = e.points[Math.floor(e.points.length / 2)];
		return [{ ...edge, points: e.points, labelX: e.x ?? middle.x, labelY: e.y ?? middle.y }];
	});
	const size = g.graph() as { width?: number; height?: number };
	// A loop on a box's right side and its label may reach past dagre's width.
	const right = Math.max(
		(size.width ?? 0) - 20,
		...dagres.map((e) => e.labelX + Math.min(edgeText(e).length, 40) * 3.1),
	);
	const lanes = routeLanes(
		drawn.filter((e) => laned.has(e.id)),
		nodes,
		right,
	);
	const edges = [...dagres, ...lanes.routed];
	return {
		nodes,
		edges,
		width: lanes.right + 20,
		height: Math.max(size.height ?? 0, lanes.bottom + 20),
		ms: performance.now() - began,
	};
}

/** The graph dagre lays out: the boxes, and the arrows but loops and those drawn in lanes. */
function dagreGraph(
	graph: ScenarioGraph,
	drawn: readonly GraphEdge[],
	laned: ReadonlySet<string>,
	options: LayoutOptions,
): Graph {
	const height = options.height ?? boxHeight;
	const g = new Graph({ multigraph: true });
	g.setGraph({
		rankdir: options.rankdir,
		nodesep: 60,
		ranksep: 70,
		edgesep: 20,
		marginx: 20,
		marginy: 20,
	});
	g.setDefaultEdgeLabel(() => ({}));
	g.setNode(START, { width: 22, height: 22 });
	for (const box of graph.boxes)
		g.setNode(box.name, { width: BOX_WIDTH, height: height(box), box });
	if (graph.any) g.setNode(ANY, { width: 130, height: 34 });
	if (drawn.some((e) => e.target === END)) g.setNode(END, { width: 22, height: 22 });
	for (const edge of drawn) {
		if (edge.source === edge.target || laned.has(edge.id)) continue; // loops: drawn beside their box
		const width = Math.min(edgeText(edge).length, 40) * 6.2;
		g.setEdge(
			edge.source,
			edge.target,
			{ width, height: edgeText(edge) ? 16 : 0, labelpos: 'c' },
			edge.id,
		);
	}
	return g;
}

/** An arrow from a box back to itself: a loop on its right side, its label beside it. */
function selfLoop(edge: GraphEdge, n: Placed): Routed {
	const right = n.x + n.width / 2;
	const points = [
		{ x: right, y: n.y - 8 },
		{ x: right + 30, y: n.y - 14 },
		{ x: right + 30, y: n.y + 14 },
		{ x: right, y: n.y + 8 },
	];
	return {
		...edge,
		points,
		labelX: right + 34 + Math.min(edgeText(edge).length, 40) * 3.1,
		labelY: n.y,
	};
}

/** An arrow to a state that does not exist is not drawn: the problems list names it. */
function known(id: string, names: Set<string>): boolean {
	return id === START || id === END || id === ANY || names.has(id);
}
