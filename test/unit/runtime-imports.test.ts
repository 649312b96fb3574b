/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling: reads the source tree, never loaded by n8n */
import { builtinModules } from 'node:module';
import path from 'node:path';

import { findCycles, importGraph, reachable } from './import-graph';

// The layers of the scenario runtime, each importing only the ones before it (its README says why),
// then the studio, which builds on them, and the CLI, which composes the scenario commands and the studio's.
const LAYERS = ['format', 'machine', 'analytics', 'durability', 'engine', 'offline'];
const SCENARIOS = path.join('runtime', 'scenarios');
const ROOMS = [
	...LAYERS.map((layer) => path.join(SCENARIOS, layer)),
	path.join('runtime', 'studio'),
	path.join('runtime', 'cli'),
];
const graph = importGraph(path.resolve(__dirname, '../../runtime'));

const layerOf = (file: string): number =>
	ROOMS.findIndex((room) => file.startsWith(room + path.sep));

const isNodeModule = (name: string) =>
	name.startsWith('node:') || builtinModules.includes(name.split('/')[0]);

describe('imports in runtime/', () => {
	it('form no cycle, type-only imports included', () => {
		const cycles = findCycles(graph.edges).map((cycle) => cycle.join(' -> '));
		expect(cycles).toEqual([]);
	});

	it('run one way through the scenario layers (format, machine, analytics, durability, engine, offline), the studio and the CLI', () => {
		const upward: string[] = [];
		for (const [file, imports] of graph.edges) {
			const layer = layerOf(file);
			if (layer < 0) continue;
			for (const target of imports) {
				if (layerOf(target) > layer) upward.push(`${file} imports ${target}`);
			}
		}
		expect(upward).toEqual([]);
	});

	it("leave the format, the machine, the rehearsal and the picture free of Node modules (a browser runs them), but the PNG's font files and zlib, read in picture/files.ts alone", () => {
		const picture = path.join(SCENARIOS, 'offline', 'picture') + path.sep;
		const pngFiles = path.join(picture, 'files.ts');
		const roots = [...graph.edges.keys()].filter(
			(file) =>
				layerOf(file) === 0 ||
				layerOf(file) === 1 ||
				file === path.join(SCENARIOS, 'offline', 'rehearse.ts') ||
				file.startsWith(picture),
		);
		expect(roots.filter((file) => file.startsWith(picture)).length).toBeGreaterThan(0);
		const found: string[] = [];
		for (const root of roots) {
			for (const file of reachable(graph.edges, root)) {
				for (const name of graph.external.get(file) ?? [])
					if (isNodeModule(name) && file !== pngFiles)
						found.push(`${root} reaches ${name} through ${file}`);
			}
		}
		expect([...new Set(found)]).toEqual([]);
	});
});
