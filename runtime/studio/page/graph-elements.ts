import type { Edge, Node } from '@xyflow/react';

import { arrowHead, type RouteData } from './Edges';
import type { Layout, Overlay, StateBox, StateTraffic } from './runtime-bridge';
import type { VariantRow } from './split-view';

/** What a state's box draws (Graph.tsx's StateNode). */
export type BoxData = {
	box: StateBox;
	problem: boolean;
	current: boolean;
	visited: boolean;
	traffic?: StateTraffic;
	variants?: VariantRow[];
};

/** What lights the boxes: the selection, the problems, the preview chat's path, the traffic. */
export interface BoxMarks {
	selected?: string;
	problems: ReadonlySet<string>;
	current?: string;
	visited: ReadonlySet<string>;
	/** A period's traffic, drawn over the boxes and arrows. */
	traffic?: Overlay;
	/** Each split step's variants. */
	splits: ReadonlyMap<string, VariantRow[]>;
}

/** The layout's boxes as React Flow's nodes: the states, and the start and end marks. */
export function flowNodes(layout: Layout, marks: BoxMarks): Node[] {
	const { selected, problems, current, visited, traffic, splits } = marks;
	return layout.nodes.map((n) => {
		const common = { id: n.id, position: { x: n.x, y: n.y }, width: n.width, height: n.height };
		if (!n.box)
			return {
				...common,
				type: 'mark',
				data: { kind: n.id },
				selectable: false,
				connectable: false,
			};
		const data: BoxData = {
			box: n.box,
			problem: problems.has(n.id),
			current: current === n.id,
			visited: visited.has(n.id),
			traffic: traffic?.state(n.id),
			variants: splits.get(n.id),
		};
		return {
			...common,
			type: 'state',
			data,
			selected: selected === n.id,
			style: { width: n.width, height: n.height },
		};
	});
}

/** The layout's routes as React Flow's edges, each as wide as the traffic it carried. */
export function flowEdges(layout: Layout & { free: Set<string> }, traffic?: Overlay): Edge[] {
	return layout.edges.map((route) => ({
		id: route.id,
		// The head is drawn in units of the line's width: kept the same size on a wide arrow.
		markerEnd: arrowHead(traffic?.edges.get(route.id)?.width ?? 1),
		source: route.source,
		target: route.target,
		type: 'route',
		data: {
			route,
			seen: traffic?.edges.get(route.id),
			free: layout.free.has(route.id),
		} satisfies RouteData,
		selectable: false,
	}));
}
