/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the CLI runs in a terminal, never loaded by n8n */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';

import { openStateStore } from '../../stores/open';
import { isPostgresUrl } from '../../stores/postgres-options';
import type { MovePlan } from '../engine/versions/move-plan';
import type { CliIo } from './chat';
import { ScenarioVersions } from './scenario-versions';
import { movePreviewTable, moveReportTable, versionsTable } from './versions-tables';

export const VERSIONS_USAGE = `  versions FILE --store S [--scope NAME]
                     the versions of FILE's scenario the store has seen: dates, hash, and the
                     conversations still running on each (S: sqlite file | redis URL | postgres URL)
  move FILE --store S --from N [--to N] [--map OLD=NEW...] [--unmapped finish|restart] [--apply]
                     where the live conversations of version N would go in version --to (default:
                     FILE's), per state; with --apply, moves them, each once, and lists what could not
  rollback FILE --store S --to N
                     writes version N's content, as the store kept it, into FILE as a new version`;

type Flags = {
	store?: string;
	scope?: string;
	from?: string;
	to?: string;
	map?: string[];
	unmapped?: string;
	apply?: boolean;
};

/** `versions`, `move` and `rollback`: returns the exit code. */
export async function runVersionsCommand(
	command: 'versions' | 'move' | 'rollback',
	args: readonly string[],
	io: CliIo,
): Promise<number> {
	let flags: Flags;
	let file: string | undefined;
	try {
		const parsed = parseArgs({
			args: [...args],
			allowPositionals: true,
			options: {
				store: { type: 'string' },
				scope: { type: 'string' },
				from: { type: 'string' },
				to: { type: 'string' },
				map: { type: 'string', multiple: true },
				unmapped: { type: 'string' },
				apply: { type: 'boolean' },
			},
			strict: true,
		});
		flags = parsed.values;
		file = parsed.positionals[0];
	} catch (error) {
		io.err(`${(error as Error).message}\n\nUsage:\n${VERSIONS_USAGE}\n`);
		return 2;
	}
	const problem = argumentProblem(command, file, flags);
	if (problem) {
		io.err(`${problem}\n\nUsage:\n${VERSIONS_USAGE}\n`);
		return 2;
	}
	const where = flags.store as string;
	if (!/^rediss?:\/\//.test(where) && !isPostgresUrl(where) && !existsSync(where)) {
		io.err(`No state store file at ${where}\n`);
		return 1;
	}
	const store = openStateStore(where);
	try {
		const json: unknown = JSON.parse(await readFile(file as string, 'utf8'));
		const versions = new ScenarioVersions(store, json, flags.scope);
		if (command === 'rollback')
			return await rollBack(versions, file as string, Number(flags.to), io);
		if (command === 'versions') io.out(versionsTable(await versions.list()));
		else if (!flags.apply) io.out(movePreviewTable(await versions.preview(planOf(flags))));
		else {
			const report = await versions.move(planOf(flags));
			io.out(moveReportTable(report));
			if (report.notMoved.length > 0) return 1;
		}
		return 0;
	} catch (error) {
		io.err(`${(error as Error).message}\n`);
		return 1;
	} finally {
		await store.close();
	}
}

function argumentProblem(
	command: string,
	file: string | undefined,
	flags: Flags,
): string | undefined {
	if (!file) return `${command} needs a scenario file`;
	if (!flags.store) return `${command} needs --store`;
	const whole = (v: string | undefined) => v !== undefined && /^[1-9]\d*$/.test(v);
	if (command === 'move' && !whole(flags.from))
		return '--from must be a version number (1 or more)';
	if (command !== 'versions' && flags.to !== undefined && !whole(flags.to))
		return '--to must be a version number (1 or more)';
	if (command === 'rollback' && flags.to === undefined) return 'rollback needs --to N';
	if (flags.unmapped !== undefined && !['finish', 'restart'].includes(flags.unmapped))
		return `--unmapped must be finish or restart (got ${flags.unmapped})`;
	const bad = (flags.map ?? []).find((pair) => !/^[^=]+=[^=]+$/.test(pair));
	if (bad !== undefined) return `--map must be OLD=NEW, a state of each version (got ${bad})`;
	return undefined;
}

function planOf(flags: Flags): MovePlan {
	const states = Object.fromEntries(
		(flags.map ?? []).map((pair) => pair.split('=').map((s) => s.trim()) as [string, string]),
	);
	return {
		from: Number(flags.from),
		...(flags.to === undefined ? {} : { to: Number(flags.to) }),
		states,
		unmapped: (flags.unmapped ?? 'finish') as MovePlan['unmapped'],
	};
}

/** Roll Back: version N's content, as the store kept it, written to FILE as a new version. */
async function rollBack(
	versions: ScenarioVersions,
	file: string,
	version: number,
	io: CliIo,
): Promise<number> {
	const document = await versions.rolledBack(version);
	if (!document) {
		io.err(
			`The store has no version ${version} of "${versions.id}" (run versions to list those it has)\n`,
		);
		return 1;
	}
	await writeFile(file, `${JSON.stringify(document, null, 2)}\n`);
	io.out(`${file}: version ${version}'s content saved as version ${document.version}\n`);
	return 0;
}
