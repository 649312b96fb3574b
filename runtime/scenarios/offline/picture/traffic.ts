import { ANY, type ScenarioGraph } from './graph';

/**
 * A period's traffic drawn over the scenario: how many conversations entered each state and how
 * many ended their period there (drop-off), how often each transition was taken. The same shape
 * as the analytics reading gives, declared here so the picture needs nothing else of it.
 */
export interface Traffic {
	states: Record<string, { entered: number; dropOff: number }>;
	edges: Array<{ from: string; to: string; count: number }>;
}

export interface StateTraffic {
	entered: number;
	dropOff: number;
	/** Drop-off as a share of those entered, 0..1. */
	share: number;
	/** The box's fill: paler for fewer conversations, darker for the most. */
	fill: string;
}

export interface EdgeTraffic {
	count: number;
	/** The stroke width: 1 for an arrow never taken, up to MAX_WIDTH for the busiest. */
	width: number;
	/** Whether this arrow shows the count (once for arrows between the same two boxes). */
	labelled: boolean;
}

export interface Overlay {
	state(name: string): StateTraffic;
	/** By arrow id; the start and end arrows have none. */
	edges: Map<string, EdgeTraffic>;
	mostEntered: number;
	mostTaken: number;
}

const MAX_WIDTH = 9;

/** The fill for a share of the busiest state's conversations: white to a blue text stays readable on. */
function shade(fraction: number): string {
	const f = Math.max(0, Math.min(1, fraction));
	return hslToHex(212, 0.3 + 0.5 * f, 0.97 - 0.35 * f);
}

function hslToHex(hue: number, saturation: number, lightness: number): string {
	const a = saturation * Math.min(lightness, 1 - lightness);
	const channel = (n: number) => {
		const k = (n + hue / 30) % 12;
		const value = lightness - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
		return Math.round(value * 255)
			.toString(16)
			.padStart(2, '0');
	};
	return `#${channel(0)}${channel(8)}${channel(4)}`;
}

function strokeWidth(count: number, most: number): number {
	if (count <= 0 || most <= 0) return 1;
	return Math.round((1.5 + (MAX_WIDTH - 1.5) * (count / most)) * 10) / 10;
}

const nonNegative = (n: unknown): number =>
	typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0;

export function trafficOverlay(traffic: Traffic, graph: ScenarioGraph): Overlay {
	const entries = Object.entries(traffic.states ?? {});
	const mostEntered = Math.max(0, ...entries.map(([, s]) => nonNegative(s?.entered)));
	const counts = edgeCounts(traffic, graph);
	const mostTaken = Math.max(0, ...counts.values());
	const labelled = new Set<string>();
	const edges = new Map<string, EdgeTraffic>();
	for (const edge of graph.edges) {
		if (edge.kind === 'start' || edge.kind === 'end') continue;
		const key = pair(edge.source, edge.target);
		const count = counts.get(key) ?? 0;
		edges.set(edge.id, {
			count,
			width: strokeWidth(count, mostTaken),
			labelled: count > 0 && !labelled.has(key),
		});
		labelled.add(key);
	}
	return {
		edges,
		mostEntered,
		mostTaken,
		state(name) {
			const s = traffic.states?.[name];
			const entered = nonNegative(s?.entered);
			const dropOff = nonNegative(s?.dropOff);
			return {
				entered,
				dropOff,
				share: entered > 0 ? Math.min(1, dropOff / entered) : 0,
				fill: shade(mostEntered > 0 ? entered / mostEntered : 0),
			};
		},
	};
}

const pair = (from: string, to: string) => `${from}\u0000${to}`;

/**
 * Counts by the boxes an arrow joins. A transition taken from a state with no arrow of its own to
 * the target was a keyword: it is counted on the keyword's arrow from "(any state)".
 */
function edgeCounts(traffic: Traffic, graph: ScenarioGraph): Map<string, number> {
	const drawn = new Set(graph.edges.map((e) => pair(e.source, e.target)));
	const counts = new Map<string, number>();
	for (const { from, to, count } of traffic.edges ?? []) {
		const key = drawn.has(pair(from, to)) ? pair(from, to) : pair(ANY, to);
		if (!drawn.has(key)) continue;
		counts.set(key, (counts.get(key) ?? 0) + nonNegative(count));
	}
	return counts;
}
