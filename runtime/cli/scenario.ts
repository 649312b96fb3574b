#!/usr/bin/env node
/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- the CLI runs in a terminal, never loaded by n8n */
import { createInterface } from 'node:readline';

import type { CliIo } from '../scenarios/offline/chat';
import { CHAT_USAGE, SCENARIO_USAGE, runScenarioCommand } from '../scenarios/offline/commands';
import { STATS_USAGE, runStats } from '../scenarios/offline/stats-command';
import { STUDIO_USAGE, runStudioCli } from '../studio/server/command';
import { VERSIONS_USAGE, runVersionsCommand } from '../scenarios/offline/versions-command';

// Put together here, above both rooms: the studio builds on the scenarios, never the reverse.
const USAGE = `Usage: messaging-bot-scenario <command> FILE [FILE...]

Commands:
${SCENARIO_USAGE}
${STUDIO_USAGE}
${STATS_USAGE}
${VERSIONS_USAGE}

${CHAT_USAGE}
`;

/** `messaging-bot-scenario`: runs one command; returns the exit code. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
	const [command, ...rest] = argv;
	// The studio parses its own arguments and keeps serving after this returns.
	if (command === 'studio') return runStudioCli(rest, io);
	if (command === 'stats') return await runStats(rest, io);
	if (command === 'versions' || command === 'move' || command === 'rollback')
		return await runVersionsCommand(command, rest, io);
	return await runScenarioCommand(argv, io, USAGE);
}

/** Runs the command line of this process (the `bin` launcher calls it; so does `node` on this file). */
export function run(): void {
	const rl = createInterface({ input: process.stdin, terminal: false });
	// Taken at once: lines piped in while the files load are buffered, not lost.
	const lines = rl[Symbol.asyncIterator]();
	main(process.argv.slice(2), {
		lines: { [Symbol.asyncIterator]: () => lines },
		out: (text) => process.stdout.write(text),
		err: (text) => process.stderr.write(text),
		interactive: process.stdin.isTTY === true,
	}).then(
		(code) => {
			rl.close();
			process.exitCode = code;
		},
		(error: unknown) => {
			rl.close();
			process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
			process.exitCode = 1;
		},
	);
}

if (require.main === module) run();
