import {
	BaseEdge,
	EdgeLabelRenderer,
	MarkerType,
	getBezierPath,
	type Edge,
	type EdgeProps,
} from '@xyflow/react';

import { EdgeCount } from './TrafficMarks';
import { edgeText, routePath, type EdgeTraffic, type Routed } from './runtime-bridge';

/** An arrow of the graph: dagre's route, or, when a box at either end was moved, a curve between the boxes. */

export type RouteData = { route: Routed; seen?: EdgeTraffic; free?: boolean };

/** dagre's route, smoothed through its bend points as the picture draws it, with its label where dagre left room. */
export function RouteEdge(props: EdgeProps<Edge<RouteData>>) {
	const { data, markerEnd } = props;
	const route = data?.route;
	const seen = data?.seen;
	if (!route) return null;
	const [path, labelX, labelY] = data.free
		? getBezierPath(props)
		: [routePath(route.points), route.labelX, route.labelY];
	return (
		<>
			<BaseEdge
				path={path}
				markerEnd={markerEnd}
				className={`route ${route.kind}`}
				style={seen && { strokeWidth: seen.width, opacity: seen.count === 0 ? 0.45 : 1 }}
			/>
			{(edgeText(route) || seen?.labelled) && (
				<EdgeLabelRenderer>
					<div
						className={`route-label ${route.kind}`}
						style={{
							transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)`,
						}}
					>
						{seen?.labelled && <EdgeCount id={route.id} count={seen.count} />}
						{edgeText(route)}
					</div>
				</EdgeLabelRenderer>
			)}
		</>
	);
}

export function arrowHead(width: number) {
	const w = Math.max(1, width);
	const size = Math.round(((18 + 2 * (w - 1)) / w) * 10) / 10;
	return { type: MarkerType.ArrowClosed, width: size, height: size };
}
