import { ANY, END, START, type StateBox } from './graph';
import type { Placed } from './layout';
import type { Shape } from './shapes';
import { count, truncate, wrap } from './text';
import type { StateTraffic } from './traffic';

/**
 * The picture's boxes: a state (its name, first message and notes, with its traffic when drawn),
 * the start dot, the end target and "(any state)".
 */

const CHARS = 34; // characters a 240 px box holds on a line of 12 px text
const DROP = '#c53030';
const INK = '#1a202c';

/** The picture's box: name, the first message in up to two lines, two notes, the traffic line. */
export function heightOf(box: StateBox, traffic: boolean): number {
	const message = box.messages.length ? wrap(box.messages[0], CHARS, 2).length * 16 + 4 : 0;
	const notes = Math.min(noteLines(box).length, 2) * 14;
	return 30 + message + notes + (traffic ? 22 : 0) + 6;
}

function noteLines(box: StateBox): string[] {
	const more = box.messages.length > 1 ? [`+${box.messages.length - 1} more messages`] : [];
	return [...box.notes, ...more];
}

export function node(n: Placed, seen: StateTraffic | undefined): Shape {
	const cx = n.x + n.width / 2;
	const cy = n.y + n.height / 2;
	if (n.id === START)
		return {
			kind: 'group',
			attrs: {},
			title: 'start',
			children: [{ kind: 'circle', cx, cy, r: 9, fill: INK }],
		};
	if (n.id === END)
		return {
			kind: 'group',
			attrs: {},
			title: 'end',
			children: [
				{ kind: 'circle', cx, cy, r: 10, fill: '#ffffff', stroke: INK, strokeWidth: 2 },
				{ kind: 'circle', cx, cy, r: 6, fill: INK },
			],
		};
	if (n.id === ANY)
		return {
			kind: 'group',
			attrs: {},
			children: [
				{
					kind: 'rect',
					...n,
					radius: 17,
					fill: '#faf5ff',
					stroke: '#6b46c1',
					strokeWidth: 1,
					dash: [4, 3],
				},
				{
					kind: 'text',
					x: cx,
					y: cy + 4,
					text: '(any state)',
					size: 12,
					fill: '#6b46c1',
					anchor: 'middle',
				},
			],
		};
	return stateBox(n, n.box as StateBox, seen);
}

function stateBox(n: Placed, box: StateBox, seen: StateTraffic | undefined): Shape {
	const border = box.start ? '#2f855a' : '#4a5568';
	const { x, y: top, width, height } = n;
	const out: Shape[] = [
		{
			kind: 'rect',
			x,
			y: top,
			width,
			height,
			radius: 6,
			fill: seen?.fill ?? '#ffffff',
			stroke: border,
			strokeWidth: box.start ? 2.5 : 1.2,
		},
	];
	if (box.end)
		out.push({
			kind: 'rect',
			x: x + 3,
			y: top + 3,
			width: width - 6,
			height: height - 6,
			radius: 4,
			stroke: INK,
			strokeWidth: 1,
		});
	const badges = [box.start && 'start', box.end && 'end'].filter(Boolean).join(' · ');
	const name = truncate(box.name, badges ? CHARS - badges.length - 3 : CHARS);
	out.push({ kind: 'text', x: x + 10, y: top + 20, text: name, size: 13, bold: true, fill: INK });
	if (badges)
		out.push({
			kind: 'text',
			x: x + width - 10,
			y: top + 20,
			text: badges,
			size: 10,
			fill: border,
			anchor: 'end',
		});
	let y = top + 30;
	for (const line of box.messages.length ? wrap(box.messages[0], CHARS, 2) : []) {
		y += 16;
		out.push({ kind: 'text', x: x + 10, y: y - 4, text: line, size: 12, fill: '#2d3748' });
	}
	if (box.messages.length) y += 4;
	for (const note of noteLines(box).slice(0, 2)) {
		y += 14;
		out.push({
			kind: 'text',
			x: x + 10,
			y: y - 3,
			text: truncate(note, 40),
			size: 10.5,
			italic: true,
			fill: '#718096',
		});
	}
	if (seen) out.push(...trafficLine(n, seen));
	return { kind: 'group', attrs: { 'data-state': box.name }, children: out };
}

/** The box's last line: conversations entered and dropped off, a red bar as long as the share. */
function trafficLine(n: Placed, seen: StateTraffic): Shape[] {
	const share = Math.round(seen.share * 100);
	const text = `${count(seen.entered)} entered · ${count(seen.dropOff)} dropped off (${share}%)`;
	const bar = Math.max(seen.dropOff > 0 ? 3 : 0, (n.width - 12) * seen.share);
	const line: Shape = {
		kind: 'group',
		attrs: { 'data-traffic': `${seen.entered} ${seen.dropOff}` },
		children: [
			{
				kind: 'text',
				x: n.x + 10,
				y: n.y + n.height - 10,
				text,
				size: 11,
				fill: seen.dropOff > 0 ? DROP : '#2d3748',
			},
		],
	};
	if (bar <= 0) return [line];
	return [
		line,
		{
			kind: 'rect',
			x: n.x + 6,
			y: n.y + n.height - 5,
			width: bar,
			height: 3,
			radius: 0,
			fill: DROP,
		},
	];
}
