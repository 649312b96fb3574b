/**
 * The picture as plain shapes, in drawing order: what the SVG writer and the PNG rasterizer both
 * draw, so the two files show the same thing. Colours are `#rrggbb`.
 */
export interface Point {
	x: number;
	y: number;
}

export type Shape =
	| {
			kind: 'rect';
			x: number;
			y: number;
			width: number;
			height: number;
			radius: number;
			fill?: string;
			fillOpacity?: number;
			stroke?: string;
			strokeWidth?: number;
			dash?: [number, number];
	  }
	| {
			kind: 'circle';
			cx: number;
			cy: number;
			r: number;
			fill: string;
			stroke?: string;
			strokeWidth?: number;
	  }
	/** dagre's route, smoothed through its bend points (see `smoothRoute`). */
	| { kind: 'route'; points: Point[]; stroke: string; width: number; dash?: [number, number] }
	| { kind: 'polygon'; points: Point[]; fill: string }
	| {
			kind: 'text';
			x: number;
			y: number;
			text: string;
			size: number;
			fill: string;
			bold?: boolean;
			italic?: boolean;
			anchor?: 'start' | 'middle' | 'end';
	  }
	/** Shapes that belong together: a state, an arrow; `attrs` are written into the SVG only. */
	| {
			kind: 'group';
			attrs: Record<string, string>;
			opacity?: number;
			title?: string;
			children: Shape[];
	  };

export interface Scene {
	width: number;
	height: number;
	title: string;
	shapes: Shape[];
}

/**
 * The route's pieces: straight to the middle of its first leg, then a quadratic curve through
 * each bend point to the middle of the next leg, then straight to its end.
 */
export function smoothRoute(points: Point[]): Array<{ to: Point; control?: Point }> {
	const pieces: Array<{ to: Point; control?: Point }> = [];
	for (let i = 1; i < points.length - 1; i++) {
		const middle = {
			x: (points[i].x + points[i + 1].x) / 2,
			y: (points[i].y + points[i + 1].y) / 2,
		};
		pieces.push({ to: middle, control: points[i] });
	}
	pieces.push({ to: points[points.length - 1] });
	return pieces;
}
