/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the CLI runs in a terminal, never loaded by n8n */
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';

import { formatIssue, type ScenarioIssue } from '../format/issue';
import { validateScenario, validateScenarioSet } from '../format/validate';
import { compileScenario } from '../machine/compile';
import { chat, type ChatFlags, type CliIo } from './chat';
import { renderDiagram } from './diagram';
import { renderPicture, renderPng, undrawn, type PictureOptions } from './picture';
import { openCountersReadOnly } from '../../stores/read-only';
import { readTraffic, trafficPeriod } from './traffic-reading';
import { scenarioWarnings } from '../format/warnings';
import { issueInWords, jsonErrorInWords } from '../format/wording';

/** The scenario commands' lines of the CLI's usage; the CLI puts them together with the others. */
export const SCENARIO_USAGE = `  validate FILE...   check scenarios; prints every problem with its JSON path, exits 1 if any
  diagram FILE       print a Mermaid stateDiagram-v2 of the scenario
                     (--format svg or png: the scenario as a picture instead;
                      --out FILE writes it to a file, which png needs;
                      --store <sqlite file | redis URL | postgres URL> [--from DAY --to DAY] draws the
                      traffic of the period on the picture, read-only: default the last 7 days)
  chat FILE...       talk to the scenario in the terminal (more files: scenarios it may jump to)`;

export const CHAT_USAGE = `Chat options:
  --client ID          the client you play (default cl_local)
  --first-name NAME    offline only: the client's first name, for {{client.first_name}}
  --tags a,b           offline only: the client's tags, for tag guards
  --orders FILE.json   offline only: the client's orders (a JSON list), for findOrder
  --call NAME=FILE.json
                       results of the workflow NAME for "call" steps (repeat for more):
                       a list of {"inputs": {…}, "result": {…} | "error": "…" | "delaySeconds": n}
  --base-url URL --api-key KEY --bot BOT
                       send the replies through a real service or the emulator instead
In a chat: /wait MINUTES (let time pass, timers fire), /release (end a handoff), /state, /quit`;

/**
 * `validate`, `diagram` and `chat` (and help, or a command no one knows): returns the exit code.
 * `usage` is the whole CLI's, printed with every mistake in the arguments.
 */
export async function runScenarioCommand(
	argv: readonly string[],
	io: CliIo,
	usage: string,
): Promise<number> {
	const [command, ...rest] = argv;
	let options: ReturnType<typeof readArgs>;
	try {
		options = readArgs(rest);
	} catch (error) {
		io.err(`${(error as Error).message}\n\n${usage}`);
		return 2;
	}
	if (!command || command === '--help' || command === 'help') {
		io.out(usage);
		return command ? 0 : 2;
	}
	if (!['validate', 'diagram', 'chat'].includes(command)) {
		io.err(`Unknown command "${command}"\n\n${usage}`);
		return 2;
	}
	if (options.files.length === 0) {
		io.err(`${command} needs a scenario file\n\n${usage}`);
		return 2;
	}
	const loaded = await loadAll(options.files);
	if (command === 'validate') return validate(loaded, io);
	const problems = loaded.flatMap((l) => l.issues.map((i) => `${l.file}: ${formatIssue(i)}`));
	if (problems.length > 0) {
		io.err(`${problems.join('\n')}\n`);
		return 1;
	}
	const compiled = loaded.map((l) => compileScenario(l.json));
	if (command === 'diagram') return diagram(compiled[0].document, options.diagram, io, usage);
	return chat(compiled, options.flags, io, usage);
}

/** A scenario file as read, with its problems. */
type ScenarioFile = { file: string; json: unknown; issues: ScenarioIssue[] };

async function loadAll(files: string[]): Promise<ScenarioFile[]> {
	const loaded: ScenarioFile[] = [];
	for (const file of files) {
		let json: unknown;
		let text = '';
		try {
			text = await readFile(file, 'utf8');
			json = JSON.parse(text);
		} catch (error) {
			// With the line and column of a syntax error.
			const message = text
				? jsonErrorInWords(text, error as Error)
				: `cannot be read: ${(error as Error).message}`;
			loaded.push({ file, json: undefined, issues: [{ path: '', message }] });
			continue;
		}
		const result = validateScenario(json);
		loaded.push({ file, json, issues: result.issues });
	}
	return loaded;
}

function validate(loaded: ScenarioFile[], io: CliIo): number {
	const valid = loaded.flatMap((l) => {
		const result = l.issues.length === 0 ? validateScenario(l.json) : undefined;
		return result?.ok ? [{ file: l.file, scenario: result.scenario }] : [];
	});
	// Jumps between scenarios are checked only against the files given together.
	const jumps = loaded.length > 1 ? validateScenarioSet(valid.map((v) => v.scenario)) : [];
	let failed = false;
	for (const l of loaded) {
		const issues = [
			...l.issues,
			...jumps.filter((j) => valid.find((v) => v.file === l.file)?.scenario.id === j.scenario),
		];
		if (issues.length === 0) {
			const scenario = valid.find((v) => v.file === l.file)?.scenario;
			io.out(
				`ok ${l.file}: ${scenario?.id} v${scenario?.version}, ${Object.keys(scenario?.states ?? {}).length} states\n`,
			);
			// Warnings leave the exit code at 0: the scenario runs.
			for (const w of scenario ? scenarioWarnings(scenario) : [])
				io.out(`  warning: ${issueInWords(w)} (${w.path})\n`);
			continue;
		}
		failed = true;
		io.err(`${l.file}: ${issues.length} ${issues.length === 1 ? 'problem' : 'problems'}\n`);
		for (const issue of issues) io.err(`  ${issue.path || '(document)'}: ${issue.message}\n`);
	}
	return failed ? 1 : 0;
}

type DiagramFlags = { format?: string; out?: string; store?: string; from?: string; to?: string };

/** Mermaid text (default), the SVG picture or the PNG one (to a file), printed or written to `--out`. */
async function diagram(
	doc: Parameters<typeof renderDiagram>[0],
	flags: DiagramFlags,
	io: CliIo,
	usage: string,
): Promise<number> {
	const format = flags.format ?? 'mermaid';
	if (!['mermaid', 'svg', 'png'].includes(format)) {
		io.err(`--format must be "mermaid", "svg" or "png", not "${format}"\n\n${usage}`);
		return 2;
	}
	if (format === 'png' && flags.out === undefined) {
		io.err(`--format png needs --out FILE: a PNG is not text to print\n\n${usage}`);
		return 2;
	}
	if (flags.store !== undefined && format === 'mermaid') {
		io.err(`--store draws traffic on the picture: add --format svg or png\n\n${usage}`);
		return 2;
	}
	let picture: PictureOptions;
	try {
		picture = flags.store === undefined ? {} : { traffic: await traffic(doc.id, flags) };
	} catch (error) {
		io.err(`${(error as Error).message}\n`);
		return 1;
	}
	const png = format === 'png' ? renderPng(doc, picture) : undefined;
	if (png && png.missing.length > 0) io.err(`${undrawn(png.missing)}\n`);
	const data = png ? png.png : format === 'svg' ? renderPicture(doc, picture) : renderDiagram(doc);
	if (flags.out === undefined) {
		io.out(data as string);
		return 0;
	}
	await writeFile(flags.out, data);
	io.out(`wrote ${flags.out}\n`);
	return 0;
}

/** The period's traffic of the scenario in the store given, opened read-only. */
async function traffic(scenario: string, flags: DiagramFlags) {
	const store = openCountersReadOnly(flags.store ?? '');
	try {
		return await readTraffic(store, { scenario, ...trafficPeriod(flags) });
	} finally {
		await store.close();
	}
}

/** The command's files and options; `--call` may be given once per workflow. */
function readArgs(args: readonly string[]): {
	files: string[];
	flags: ChatFlags;
	diagram: DiagramFlags;
} {
	const { values, positionals } = parseArgs({
		args: [...args],
		options: {
			client: { type: 'string' },
			'first-name': { type: 'string' },
			tags: { type: 'string' },
			orders: { type: 'string' },
			call: { type: 'string', multiple: true },
			'base-url': { type: 'string' },
			'api-key': { type: 'string' },
			bot: { type: 'string' },
			format: { type: 'string' },
			out: { type: 'string' },
			store: { type: 'string' },
			from: { type: 'string' },
			to: { type: 'string' },
		},
		allowPositionals: true,
		strict: true,
	});
	const { format, out, store, from, to, ...flags } = values;
	return { files: positionals, flags, diagram: { format, out, store, from, to } };
}
