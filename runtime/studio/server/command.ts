/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/require-node-api-error -- the studio command runs in a terminal, never loaded by n8n */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { openCountersReadOnly, type CounterReader } from '../../stores/read-only';
import { readAnalytics } from '../../scenarios/analytics/reading';
import { readTraffic, trafficPeriod } from '../../scenarios/offline/traffic-reading';
import { versionsFrom, type StudioVersions } from './versions';
import { startStudio, type RunningStudio, type StudioOptions } from './server';

export const STUDIO_USAGE = `  studio [FILE...]   the Scenario Studio in your browser: the scenario as a graph, forms, JSON,
                     problems, a preview chat; opens, saves and creates .json files inside
                     the current folder (--dir another) and nowhere else; a FILE not there
                     yet is created on its first save (--port N, default 5680; --host, default 127.0.0.1;
                      --store <sqlite file | redis URL | postgres URL>: the traffic of a period on the graph,
                      read from the state store without writing to it; its versions listed,
                      rolled back to, and conversations moved between them, which writes it;
                      --scope NAME: the Scenario node's Conversation Scope, as versions takes it)`;

/** Arguments as node:util parseArgs gives them. */
export interface StudioArgs {
	positionals: readonly string[];
	values: Readonly<Record<string, string | boolean | undefined>>;
}

export interface StudioIo {
	out(text: string): void;
	err(text: string): void;
}

/**
 * `messaging-bot-scenario studio [FILE...]`: serves the studio until the process is stopped.
 * Resolves with the running server (the caller keeps the process alive; Ctrl-C stops it).
 */
export async function studioCommand(
	args: StudioArgs,
	io: StudioIo,
): Promise<RunningStudio | number> {
	const root = typeof args.values.dir === 'string' ? args.values.dir : process.cwd();
	if (!existsSync(root)) {
		io.err(`--dir: no such folder: ${root}\n`);
		return 2;
	}
	// A file not there yet is a new scenario, created on its first save: inside the folder only.
	const outside = args.positionals.filter(
		(file) =>
			!existsSync(file) && path.relative(path.resolve(root), path.resolve(file)).startsWith('..'),
	);
	if (outside.length > 0) {
		io.err(
			`No such file: ${outside.join(', ')} (a new file must be inside ${path.resolve(root)}; --dir names another folder)\n`,
		);
		return 2;
	}
	const port = args.values.port === undefined ? 5680 : Number(args.values.port);
	if (!Number.isInteger(port) || port < 0 || port > 65535) {
		io.err(`--port must be a whole number from 0 to 65535, not "${String(args.values.port)}"\n`);
		return 2;
	}
	let store: CounterReader | undefined;
	try {
		if (typeof args.values.store === 'string') store = openCountersReadOnly(args.values.store);
	} catch (error) {
		io.err(`--store: ${(error as Error).message}\n`);
		return 2;
	}
	const host = typeof args.values.host === 'string' ? args.values.host : '127.0.0.1';
	// Versions, Roll Back and Move read and write the same store, opened when first asked.
	const scope = typeof args.values.scope === 'string' ? args.values.scope : '';
	const versions =
		typeof args.values.store === 'string' ? versionsFrom(args.values.store, scope) : undefined;
	let studio: RunningStudio;
	try {
		studio = await startStudio({
			files: args.positionals,
			root,
			pageDir: pageDir(),
			host,
			port,
			traffic: store && trafficFrom(store),
			funnel: store && funnelFrom(store),
			versions,
		});
	} catch (error) {
		await store?.close();
		throw error;
	}
	io.out(`Scenario Studio: ${studio.url}\n`);
	if (args.positionals.length > 0) io.out(`Opened: ${args.positionals.join(', ')}\n`);
	io.out(`Opens, saves and creates .json files inside ${path.resolve(root)} and nowhere else\n`);
	// Where only: a Redis URL's password is never printed.
	if (store) io.out(`Traffic from: ${store.where} (read only)\n`);
	if (versions) io.out('Versions and Move: the same store (a Move writes the conversations moved)\n');
	io.out('Ctrl-C stops it.\n');
	return store ? closingStore(studio, store, versions) : studio;
}

/** The studio, whose close() closes the store it reads traffic from too. */
function closingStore(
	studio: RunningStudio,
	store: CounterReader,
	versions?: StudioVersions,
): RunningStudio {
	return {
		...studio,
		close: async () => {
			try {
				await studio.close();
			} finally {
				await Promise.all([store.close(), versions?.close()]);
			}
		},
	};
}

/** The traffic the page asks for, read from the store (opened read-only, open until the studio closes). */
export function trafficFrom(store: CounterReader): NonNullable<StudioOptions['traffic']> {
	return async ({ scenario, ...period }) =>
		await readTraffic(store, { scenario, ...trafficPeriod(period) });
}

/**
 * The funnel the page asks for: each version of the scenario apart, over the period (the reading
 * Get Analytics makes); the page orders the bars by the opened scenario's main path.
 */
export function funnelFrom(store: CounterReader): NonNullable<StudioOptions['funnel']> {
	return async ({ scenario, ...period }) =>
		await readAnalytics(store, { scenario, ...trafficPeriod(period) });
}

/** The built page: beside the bundled CLI in the package (dist/studio), or dist/studio of the repository. */
export function pageDir(): string {
	const candidates = [
		path.join(__dirname, '..', 'studio'),
		path.resolve(__dirname, '..', '..', '..', 'dist', 'studio'),
	];
	return candidates.find((dir) => existsSync(path.join(dir, 'index.html'))) ?? candidates[0];
}

/** For the CLI: parses `studio`'s arguments, starts the studio; 0 while it runs, 2 on bad input. */
export async function runStudioCli(argv: readonly string[], io: StudioIo): Promise<number> {
	let args: StudioArgs;
	try {
		args = parseArgs({
			args: [...argv],
			allowPositionals: true,
			options: {
				port: { type: 'string' },
				host: { type: 'string' },
				store: { type: 'string' },
				dir: { type: 'string' },
				scope: { type: 'string' },
			},
		});
	} catch (error) {
		io.err(`${(error as Error).message}\n`);
		return 2;
	}
	const started = await studioCommand(args, io);
	return typeof started === 'number' ? started : 0;
}
