import { drawPng } from './draw';
import type { Scene, Shape } from './shapes';
import { writeSvg } from './svg';
import { count, truncate } from './text';

/**
 * A period's funnel as a picture: the main path's states in order, each a bar as long as the
 * conversations that reached it, the drop to the next state (count and share), and where the
 * conversations that stopped there stand, hand-offs and those still in progress apart from the
 * dropped. 800 px wide, text 14 px or more: read as is in n8n's output panel.
 */

type Stops = 'reached' | 'completed' | 'handedOff' | 'dropped' | 'inProgress';

/** The reading's traffic (analytics/reading.ts), declared here so the picture needs no more. */
export interface FunnelTraffic {
	from: string;
	to: string;
	states: Record<string, Record<Stops, number>>;
	mainPath: string[];
}

const WIDTH = 800;
const BAR_X = 230;
const BAR_MAX = 430;
const ROW = 84;
const TOP = 90;
const INK = '#1a202c';
const GREY = '#4a5568';
const RED = '#c53030';

const none = { reached: 0, completed: 0, handedOff: 0, dropped: 0, inProgress: 0 };
const percent = (part: number, whole: number) =>
	whole > 0 ? `${Math.round((100 * part) / whole)}%` : '0%';

function funnelScene(traffic: FunnelTraffic, name: string): Scene {
	const title = `${name}: funnel ${traffic.from} to ${traffic.to}`;
	const path = traffic.mainPath;
	const seen = path.map((state) => traffic.states[state] ?? none);
	const most = Math.max(1, ...seen.map((s) => s.reached));
	const shapes: Shape[] = [
		{ kind: 'text', x: 20, y: 32, text: truncate(title, 70), size: 20, bold: true, fill: INK },
		{
			kind: 'text',
			x: 20,
			y: 60,
			text: 'Main path: bar = conversations that reached the state; red = lost before the next',
			size: 14,
			fill: GREY,
		},
	];
	if (path.length === 0)
		shapes.push({ kind: 'text', x: 20, y: TOP + 20, text: 'No main path', size: 16, fill: INK });
	path.forEach((state, i) => {
		shapes.push(row(state, seen[i], TOP + i * ROW, (BAR_MAX * seen[i].reached) / most));
		if (i < path.length - 1) shapes.push(drop(state, path[i + 1], seen[i], seen[i + 1], i));
	});
	const bottom = TOP + Math.max(1, path.length) * ROW;
	shapes.push(apart(traffic, bottom));
	return { width: WIDTH, height: bottom + 40, title, shapes };
}

/** One state: its name, its bar and count, and where those that stopped there stand. */
function row(state: string, seen: Record<Stops, number>, y: number, width: number): Shape {
	const stopped =
		`stopped here: ${count(seen.completed)} completed · ${count(seen.handedOff)} handed off · ` +
		`${count(seen.inProgress)} in progress · ${count(seen.dropped)} dropped`;
	return {
		kind: 'group',
		attrs: { 'data-funnel-state': state, 'data-reached': String(seen.reached) },
		children: [
			{
				kind: 'text',
				x: 20,
				y: y + 20,
				text: truncate(state, 24),
				size: 15,
				bold: true,
				fill: INK,
			},
			{
				kind: 'rect',
				x: BAR_X,
				y,
				width: Math.round(width * 10) / 10,
				height: 28,
				radius: 3,
				fill: '#3182ce',
			},
			{
				kind: 'text',
				x: BAR_X + width + 8,
				y: y + 20,
				text: `${count(seen.reached)} reached`,
				size: 14,
				bold: true,
				fill: INK,
			},
			{ kind: 'text', x: BAR_X, y: y + 48, text: stopped, size: 14, fill: GREY },
		],
	};
}

/** The drop between two states of the path: count and share of those that reached the first. */
function drop(
	from: string,
	to: string,
	a: Record<Stops, number>,
	b: Record<Stops, number>,
	i: number,
): Shape {
	const lost = a.reached - b.reached;
	const text =
		lost >= 0
			? `${count(lost)} (${percent(lost, a.reached)}) did not reach ${truncate(to, 24)}`
			: `${count(-lost)} more reached ${truncate(to, 24)} (from elsewhere)`;
	return {
		kind: 'group',
		attrs: { 'data-drop': `${from}>${to}`, 'data-lost': String(lost) },
		children: [
			{ kind: 'text', x: BAR_X, y: TOP + i * ROW + 72, text: `▼ ${text}`, size: 14, fill: RED },
		],
	};
}

/** Hand-offs and conversations still in progress, every state's: neither is a loss. */
function apart(traffic: FunnelTraffic, y: number): Shape {
	const all = Object.values(traffic.states);
	const handedOff = all.reduce((n, s) => n + s.handedOff, 0);
	const inProgress = all.reduce((n, s) => n + s.inProgress, 0);
	const text = `Apart (every state): ${count(handedOff)} handed off to a person · ${count(inProgress)} still in progress`;
	return {
		kind: 'group',
		attrs: { 'data-apart': `${handedOff} ${inProgress}` },
		children: [{ kind: 'text', x: 20, y: y + 16, text, size: 15, bold: true, fill: '#6b46c1' }],
	};
}

/** The funnel as SVG text and a PNG, drawn as the diagram is. */
export function renderFunnel(
	traffic: FunnelTraffic,
	name: string,
): { svg: string; png: Uint8Array; missing: string[] } {
	const scene = funnelScene(traffic, name);
	return { svg: writeSvg(scene), ...drawPng(scene) };
}
