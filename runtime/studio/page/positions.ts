import * as api from './api';
import { states, type Draft } from './draft';
import type { Layout } from './runtime-bridge';

/**
 * Where the designer put boxes, kept beside the scenario (`bot.json` → `bot.layout.json`), so the
 * scenario file holds only what the runtime reads: `{ "positions": { "<state>": { "x", "y" } } }`.
 */
export type Positions = Record<string, { x: number; y: number }>;

export async function loadPositions(file: string): Promise<Positions> {
	const text = await api.readScenarioFile(file, 'layout').catch(() => undefined);
	if (!text) return {};
	try {
		const read = (JSON.parse(text) as { positions?: unknown }).positions;
		if (!read || typeof read !== 'object') return {};
		return Object.fromEntries(
			Object.entries(read as Record<string, { x?: unknown; y?: unknown }>).filter(
				([, p]) => typeof p?.x === 'number' && typeof p.y === 'number',
			),
		) as Positions;
	} catch {
		return {};
	}
}

/** Written with the scenario: only the states it still has. */
export async function savePositions(file: string, positions: Positions, draft: Draft) {
	const all = { ...drawn, ...positions };
	const kept = Object.fromEntries(Object.entries(all).filter(([name]) => name in states(draft)));
	if (Object.keys(kept).length === 0) return;
	await api.writeScenarioFile(
		file,
		`${JSON.stringify({ positions: kept }, null, '\t')}\n`,
		'layout',
	);
}

/** The positions of the boxes last drawn (laid out or placed), so a save keeps every box where it is. */
let drawn: Positions = {};

/**
 * dagre's layout with the designer's boxes where they were put. Boxes not placed yet (new states)
 * keep dagre's column and go below the placed ones, so they never land on one. An arrow with a
 * moved end loses dagre's route: `free` marks it, and the graph draws it between the boxes' handles.
 */
export function withPositions(layout: Layout, placed: Positions): Layout & { free: Set<string> } {
	const free = new Set<string>();
	const kept = layout.nodes.filter((n) => n.box && placed[n.id]);
	if (kept.length === 0) {
		drawn = Object.fromEntries(
			layout.nodes.filter((n) => n.box).map((n) => [n.id, { x: n.x, y: n.y }]),
		);
		return { ...layout, free };
	}
	const bottom = Math.max(...kept.map((n) => placed[n.id].y + n.height));
	const loose = layout.nodes.filter((n) => !kept.includes(n) && n.box);
	const top = Math.min(...loose.map((n) => n.y));
	const moved = new Set<string>();
	const nodes = layout.nodes.map((n) => {
		const at = placed[n.id] ?? (n.box ? { x: n.x, y: bottom + 60 + (n.y - top) } : undefined);
		if (!at) return n;
		moved.add(n.id);
		return { ...n, ...at };
	});
	for (const e of layout.edges) if (moved.has(e.source) || moved.has(e.target)) free.add(e.id);
	drawn = Object.fromEntries(nodes.filter((n) => n.box).map((n) => [n.id, { x: n.x, y: n.y }]));
	return { ...layout, nodes, free };
}

export const drawnPositions = () => drawn;
