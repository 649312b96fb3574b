/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the studio server runs in a terminal, never loaded by n8n */
import { realpathSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * The folder the studio was started for: scenario files in it may be listed, opened, saved and
 * created (with their folders); nothing outside it, however the path is spelled or linked.
 */
export class ScenarioFolder {
	readonly root: string;

	constructor(root: string) {
		this.root = realpathSync(path.resolve(root));
	}

	/** The path a request names, if it is a `.json` file inside the folder (links followed). */
	resolve(requested: string): string | undefined {
		if (!requested || requested.includes('\0') || !requested.endsWith('.json')) return undefined;
		const absolute = path.resolve(this.root, requested);
		const real = nearestReal(absolute);
		return inside(this.root, real) ? real : undefined;
	}

	/** Makes the folders a new file goes in (inside the folder only: resolve() said so). */
	async prepare(file: string): Promise<void> {
		await mkdir(path.dirname(file), { recursive: true });
	}

	/** The scenario files in the folder, three levels down at most, as paths relative to it. */
	async list(): Promise<string[]> {
		const found: string[] = [];
		const walk = async (dir: string, depth: number): Promise<void> => {
			const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
			for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
				if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
				const full = path.join(dir, entry.name);
				if (entry.isDirectory() && depth < 3) await walk(full, depth + 1);
				else if (entry.isFile() && isScenarioName(entry.name))
					found.push(path.relative(this.root, full));
				if (found.length >= MAX_LISTED) return;
			}
		};
		await walk(this.root, 0);
		return found;
	}
}

const MAX_LISTED = 500;

/** A scenario's file name: JSON, but not a layout kept beside a scenario, nor a package file. */
const isScenarioName = (name: string) =>
	name.endsWith('.json') && !name.endsWith(LAYOUT_SUFFIX) && !/^(package|tsconfig)/.test(name);

/** Where the studio keeps a scenario's box positions: beside it, `bot.json` → `bot.layout.json`. */
const LAYOUT_SUFFIX = '.layout.json';
export const layoutFileOf = (file: string) => file.replace(/\.json$/, LAYOUT_SUFFIX);

function inside(root: string, file: string): boolean {
	const relative = path.relative(root, file);
	return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

/** The real path of a file that may not exist yet: its nearest existing folder's, links followed. */
function nearestReal(absolute: string): string {
	const rest: string[] = [];
	let at = absolute;
	for (;;) {
		try {
			return path.join(realpathSync(at), ...rest.reverse());
		} catch {
			const parent = path.dirname(at);
			if (parent === at) return absolute;
			rest.push(path.basename(at));
			at = parent;
		}
	}
}
