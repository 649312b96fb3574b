import {
	ANY,
	END,
	START,
	edgeText,
	scenarioGraph,
	type EdgeKind,
	type ScenarioGraph,
	type StateBox,
} from './graph';
import { layoutGraph, type Layout, type Placed, type Routed } from './layout';
import { count, escapeXml, truncate, wrap } from './text';
import { trafficOverlay, type Overlay, type StateTraffic, type Traffic } from './traffic';

/**
 * A scenario drawn as an SVG picture, as text: no browser, no Node module, so n8n's output panel,
 * the CLI and a browser all get the same file. Boxes are states (name, first message, what they
 * ask, call or do), arrows the graph's transitions, placed by dagre. With a period's traffic,
 * boxes are shaded by conversations entered, arrows as wide as they were taken, drop-off in red.
 */

export interface PictureOptions {
	traffic?: Traffic;
}

const COLOURS: Record<EdgeKind, string> = {
	start: '#1a202c',
	on: '#4a5568',
	keyword: '#6b46c1',
	capture: '#2f855a',
	giveUp: '#c53030',
	after: '#718096',
	choose: '#b7791f',
	call: '#2b6cb0',
	end: '#1a202c',
};
const DASHED: ReadonlySet<EdgeKind> = new Set(['giveUp', 'after', 'keyword']);
const FONT = "font-family='Helvetica, Arial, sans-serif'";
const CHARS = 34; // characters a 240 px box holds on a line of 12 px text
const HEADER = 40;
const DROP = '#c53030';

/** The picture's box: name, the first message in up to two lines, two notes, the traffic line. */
function heightOf(box: StateBox, traffic: boolean): number {
	const message = box.messages.length ? wrap(box.messages[0], CHARS, 2).length * 16 + 4 : 0;
	const notes = Math.min(noteLines(box).length, 2) * 14;
	return 30 + message + notes + (traffic ? 22 : 0) + 6;
}

function noteLines(box: StateBox): string[] {
	const more = box.messages.length > 1 ? [`+${box.messages.length - 1} more messages`] : [];
	return [...box.notes, ...more];
}

/** Top to bottom; left to right when that comes out more than twice as wide as tall. */
function pictureLayout(graph: ScenarioGraph, traffic: boolean): Layout {
	const height = (box: StateBox) => heightOf(box, traffic);
	const down = layoutGraph(graph, { height });
	if (down.width <= 2 * down.height) return down;
	const across = layoutGraph(graph, { height, rankdir: 'LR' });
	return across.width * across.height <= 1.2 * down.width * down.height ? across : down;
}

export function renderPicture(doc: unknown, options: PictureOptions = {}): string {
	const graph = scenarioGraph(doc);
	const traffic = options.traffic ? trafficOverlay(options.traffic, graph) : undefined;
	const layout = pictureLayout(graph, traffic !== undefined);
	const header = HEADER + (traffic ? 18 : 0);
	const width = Math.ceil(Math.max(layout.width, 420));
	const height = Math.ceil(layout.height + header);
	const { id, version } = doc as { id?: unknown; version?: unknown };
	const title = `${String(id ?? 'scenario')}${version === undefined ? '' : ` v${String(version)}`}`;
	const parts = [
		`<svg xmlns='http://www.w3.org/2000/svg' width='${width}' height='${height}' viewBox='0 0 ${width} ${height}' ${FONT} font-size='12'>`,
		`<title>${escapeXml(title)}</title>`,
		`<rect width='${width}' height='${height}' fill='#ffffff'/>`,
		`<text x='20' y='26' font-size='16' font-weight='bold' fill='#1a202c'>${escapeXml(truncate(title, 80))}</text>`,
		traffic ? legend(traffic) : '',
		`<g transform='translate(0 ${header})'>`,
		...layout.edges.map((e) => arrow(e, traffic)),
		...layout.nodes.map((n) => node(n, traffic)),
		...layout.edges.map((e) => arrowLabel(e, traffic)),
		'</g>',
		'</svg>',
	];
	return `${parts.filter(Boolean).join('\n')}\n`;
}

function legend(traffic: Overlay): string {
	const text =
		`Traffic: box shade = conversations entered (most ${count(traffic.mostEntered)}); ` +
		`arrow width = times taken (most ${count(traffic.mostTaken)}); ` +
		'red = dropped off (their last state in the period)';
	return `<text x='20' y='46' font-size='11' fill='#4a5568'>${escapeXml(text)}</text>`;
}

/**
 * dagre's route, smoothed through its bend points, stopping where its head begins; the head is
 * drawn apart so it stays in proportion to the arrow's width.
 */
function routePath(route: Routed['points'], head: number): { d: string; tip: string } {
	const points = route.map((p) => ({ x: round(p.x), y: round(p.y) }));
	const end = points[points.length - 1];
	const before = points[points.length - 2] ?? end;
	const length = Math.hypot(end.x - before.x, end.y - before.y) || 1;
	const ux = (end.x - before.x) / length;
	const uy = (end.y - before.y) / length;
	const back = Math.min(head, length);
	const base = { x: round(end.x - ux * back), y: round(end.y - uy * back) };
	const half = head * 0.45;
	const tip = `${end.x},${end.y} ${round(base.x - uy * half)},${round(base.y + ux * half)} ${round(base.x + uy * half)},${round(base.y - ux * half)}`;
	points[points.length - 1] = base;
	return { d: smooth(points), tip };
}

const round = (n: number) => Math.round(n * 10) / 10;

function smooth(points: Routed['points']): string {
	let d = `M ${points[0].x} ${points[0].y}`;
	for (let i = 1; i < points.length - 1; i++) {
		const mx = (points[i].x + points[i + 1].x) / 2;
		const my = (points[i].y + points[i + 1].y) / 2;
		d += ` Q ${points[i].x} ${points[i].y} ${mx} ${my}`;
	}
	const last = points[points.length - 1];
	return `${d} L ${last.x} ${last.y}`;
}

function arrow(edge: Routed, traffic: Overlay | undefined): string {
	const seen = traffic?.edges.get(edge.id);
	const width = seen?.width ?? 1.5;
	const faded = seen && seen.count === 0 ? " opacity='0.45'" : '';
	const dash = DASHED.has(edge.kind) ? " stroke-dasharray='6 4'" : '';
	const colour = COLOURS[edge.kind];
	const { d, tip } = routePath(edge.points, 9 + width);
	return `<g data-edge='${escapeXml(edge.id)}'${faded}><path d='${d}' fill='none' stroke='${colour}' stroke-width='${width}'${dash}/><polygon points='${tip}' fill='${colour}'/></g>`;
}

function arrowLabel(edge: Routed, traffic: Overlay | undefined): string {
	const seen = traffic?.edges.get(edge.id);
	const words = truncate(edgeText(edge), 40);
	const text = seen?.labelled ? `${words} ×${count(seen.count)}` : words;
	if (!text) return '';
	const w = Array.from(text).length * 6.2 + 8;
	const { labelX: x, labelY: y } = edge;
	const colour = edge.kind === 'on' ? '#2d3748' : COLOURS[edge.kind];
	return [
		`<rect x='${x - w / 2}' y='${y - 9}' width='${w}' height='17' rx='3' fill='#ffffff' fill-opacity='0.9'/>`,
		`<text x='${x}' y='${y + 4}' text-anchor='middle' font-size='11' fill='${colour}'>${escapeXml(text)}</text>`,
	].join('');
}

function node(n: Placed, traffic: Overlay | undefined): string {
	const cx = n.x + n.width / 2;
	const cy = n.y + n.height / 2;
	if (n.id === START)
		return `<circle cx='${cx}' cy='${cy}' r='9' fill='#1a202c'><title>start</title></circle>`;
	if (n.id === END)
		return `<g><title>end</title><circle cx='${cx}' cy='${cy}' r='10' fill='#ffffff' stroke='#1a202c' stroke-width='2'/><circle cx='${cx}' cy='${cy}' r='6' fill='#1a202c'/></g>`;
	if (n.id === ANY)
		return `<rect x='${n.x}' y='${n.y}' width='${n.width}' height='${n.height}' rx='17' fill='#faf5ff' stroke='#6b46c1' stroke-dasharray='4 3'/><text x='${cx}' y='${cy + 4}' text-anchor='middle' fill='#6b46c1'>(any state)</text>`;
	return n.box ? stateBox(n, n.box, traffic) : '';
}

function stateBox(n: Placed, box: StateBox, traffic: Overlay | undefined): string {
	const seen = traffic?.state(box.name);
	const border = box.start ? '#2f855a' : '#4a5568';
	const out = [
		`<g data-state='${escapeXml(box.name)}'>`,
		`<rect x='${n.x}' y='${n.y}' width='${n.width}' height='${n.height}' rx='6' fill='${seen?.fill ?? '#ffffff'}' stroke='${border}' stroke-width='${box.start ? 2.5 : 1.2}'/>`,
	];
	if (box.end)
		out.push(
			`<rect x='${n.x + 3}' y='${n.y + 3}' width='${n.width - 6}' height='${n.height - 6}' rx='4' fill='none' stroke='#1a202c' stroke-width='1'/>`,
		);
	const badges = [box.start && 'start', box.end && 'end'].filter(Boolean).join(' · ');
	const nameRoom = badges ? CHARS - badges.length - 3 : CHARS;
	out.push(
		`<text x='${n.x + 10}' y='${n.y + 20}' font-size='13' font-weight='bold' fill='#1a202c'>${escapeXml(truncate(box.name, nameRoom))}</text>`,
	);
	if (badges)
		out.push(
			`<text x='${n.x + n.width - 10}' y='${n.y + 20}' text-anchor='end' font-size='10' fill='${border}'>${badges}</text>`,
		);
	let y = n.y + 30;
	for (const line of box.messages.length ? wrap(box.messages[0], CHARS, 2) : []) {
		y += 16;
		out.push(`<text x='${n.x + 10}' y='${y - 4}' fill='#2d3748'>${escapeXml(line)}</text>`);
	}
	if (box.messages.length) y += 4;
	for (const note of noteLines(box).slice(0, 2)) {
		y += 14;
		out.push(
			`<text x='${n.x + 10}' y='${y - 3}' font-size='10.5' font-style='italic' fill='#718096'>${escapeXml(truncate(note, 40))}</text>`,
		);
	}
	if (seen) out.push(...trafficLine(n, seen));
	out.push('</g>');
	return out.join('');
}

/** The box's last line: conversations entered and dropped off, a red bar as long as the share. */
function trafficLine(n: Placed, seen: StateTraffic): string[] {
	const y = n.y + n.height - 10;
	const share = Math.round(seen.share * 100);
	const words = `${count(seen.entered)} entered · ${count(seen.dropOff)} dropped off (${share}%)`;
	const bar = Math.max(seen.dropOff > 0 ? 3 : 0, (n.width - 12) * seen.share);
	return [
		`<text x='${n.x + 10}' y='${y}' font-size='11' fill='${seen.dropOff > 0 ? DROP : '#2d3748'}' data-traffic='${seen.entered} ${seen.dropOff}'>${escapeXml(words)}</text>`,
		bar > 0
			? `<rect x='${n.x + 6}' y='${n.y + n.height - 5}' width='${bar}' height='3' fill='${DROP}'/>`
			: '',
	];
}
