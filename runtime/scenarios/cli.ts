#!/usr/bin/env node
/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- the CLI runs in a terminal, never loaded by n8n */
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';

import { MessagingBotClient } from '../api/client';
import { MemoryStore } from '../stores/memory';
import { splitTags } from '../tags';
import { compileScenario, type CompiledScenario } from './compile';
import { renderDiagram } from './diagram';
import type { ActionReport } from './conversation';
import { ScenarioEngine, type ScenarioApi } from './engine';
import { timerWait } from './timer-wait';
import { fixturePort, loadFixtures } from './fixtures';
import { RecordingApi } from './recording-api';
import { formatIssue, validateScenario, validateScenarioSet, type ScenarioIssue } from './validate';

const USAGE = `Usage: messaging-bot-scenario <command> FILE [FILE...]

Commands:
  validate FILE...   check scenarios; prints every problem with its JSON path, exits 1 if any
  diagram FILE       print a Mermaid stateDiagram-v2 of the scenario
  chat FILE...       talk to the scenario in the terminal (more files: scenarios it may jump to)

Chat options:
  --client ID          the client you play (default cl_local)
  --first-name NAME    offline only: the client's first name, for {{client.first_name}}
  --tags a,b           offline only: the client's tags, for tag guards
  --orders FILE.json   offline only: the client's orders (a JSON list), for findOrder
  --call NAME=FILE.json
                       results of the workflow NAME for "call" steps (repeat for more):
                       a list of {"inputs": {…}, "result": {…} | "error": "…" | "delaySeconds": n}
  --base-url URL --api-key KEY --bot BOT
                       send the replies through a real service or the emulator instead
In a chat: /wait MINUTES (let time pass, timers fire), /release (end a handoff), /state, /quit
`;

export interface CliIo {
	lines: AsyncIterable<string>;
	out(text: string): void;
	err(text: string): void;
	/** Show a prompt before each line (a terminal, not a pipe). */
	interactive: boolean;
}

type Options = { files: string[]; flags: Map<string, string> };

/** Runs one command; returns the exit code. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
	const [command, ...rest] = argv;
	let options: Options;
	try {
		options = parseArgs(rest);
	} catch (error) {
		io.err(`${(error as Error).message}\n\n${USAGE}`);
		return 2;
	}
	if (!command || command === '--help' || command === 'help') {
		io.out(USAGE);
		return command ? 0 : 2;
	}
	if (!['validate', 'diagram', 'chat'].includes(command)) {
		io.err(`Unknown command "${command}"\n\n${USAGE}`);
		return 2;
	}
	if (options.files.length === 0) {
		io.err(`${command} needs a scenario file\n\n${USAGE}`);
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
	if (command === 'diagram') {
		io.out(renderDiagram(compiled[0].document));
		return 0;
	}
	return chat(compiled, options.flags, io);
}

type Loaded = { file: string; json: unknown; issues: ScenarioIssue[] };

async function loadAll(files: string[]): Promise<Loaded[]> {
	const loaded: Loaded[] = [];
	for (const file of files) {
		let json: unknown;
		try {
			json = JSON.parse(await readFile(file, 'utf8'));
		} catch (error) {
			const reason = (error as Error).message;
			loaded.push({
				file,
				json: undefined,
				issues: [{ path: '', message: `cannot be read as JSON: ${reason}` }],
			});
			continue;
		}
		const result = validateScenario(json);
		loaded.push({ file, json, issues: result.issues });
	}
	return loaded;
}

function validate(loaded: Loaded[], io: CliIo): number {
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
			continue;
		}
		failed = true;
		io.err(`${l.file}: ${issues.length} ${issues.length === 1 ? 'problem' : 'problems'}\n`);
		for (const issue of issues) io.err(`  ${issue.path || '(document)'}: ${issue.message}\n`);
	}
	return failed ? 1 : 0;
}

async function chat(
	scenarios: CompiledScenario[],
	flags: Map<string, string>,
	io: CliIo,
): Promise<number> {
	const clientId = flags.get('client') ?? 'cl_local';
	let offsetMs = 0;
	const clock = { now: () => Date.now() + offsetMs, sleep: (ms: number) => sleep(ms) };
	let api: ScenarioApi;
	let botId = flags.get('bot') ?? 'bot_local';
	let close = async () => {};
	const baseUrl = flags.get('base-url');
	if (baseUrl) {
		const apiKey = flags.get('api-key');
		botId = flags.get('bot') ?? '';
		if (!apiKey || !botId) {
			io.err('--base-url needs --api-key and --bot as well\n');
			return 2;
		}
		// Loaded only here: undici needs Node 22.19+; validate, diagram and the offline chat run on Node 20.
		const { createUndiciTransport } = await import('../api/undici-transport');
		const transport = createUndiciTransport({ apiKey });
		api = new MessagingBotClient({ baseUrl, transport, clock, apiKey });
		close = () => transport.close();
	} else {
		api = new RecordingApi([
			{
				id: clientId,
				first_name: flags.get('first-name') ?? null,
				tags: splitTags(flags.get('tags')),
				...(flags.has('orders')
					? { orders: JSON.parse(await readFile(flags.get('orders') ?? '', 'utf8')) as [] }
					: {}),
			},
		]);
	}
	const workflows = fixturePort(await loadFixtures(flags.get('call') ?? ''));
	const engine = new ScenarioEngine({
		scenarios,
		store: new MemoryStore(clock.now),
		api,
		clock,
		wait: timerWait,
		workflows,
	});
	const show = (actions: ActionReport[]) => {
		for (const a of actions) {
			if (a.kind === 'reply') {
				const note = a.status === 'done' ? '' : `  [${a.status}${a.error ? `: ${a.error}` : ''}]`;
				io.out(`bot> ${a.text}${note}\n`);
			} else if (a.kind === 'workflow') {
				const r = a.result;
				io.out(
					`     [workflow ${a.workflow} ${JSON.stringify(a.inputs)}: ${r?.outcome ?? a.status}${r?.error ? ` (${r.error})` : ''}]\n`,
				);
			} else {
				const change = [
					...(a.add ?? []).map((t) => `+${t}`),
					...(a.remove ?? []).map((t) => `-${t}`),
				];
				io.out(`     [tags ${change.join(' ')}${a.status === 'done' ? '' : `: ${a.status}`}]\n`);
			}
		}
	};
	io.out(
		`Chatting with "${scenarios[0].id}" v${scenarios[0].version} as ${clientId}${baseUrl ? ` through ${baseUrl} (bot ${botId})` : ' (offline)'}. /quit to leave.\n`,
	);
	let n = 0;
	const prompt = () => io.interactive && io.out('you> ');
	prompt();
	try {
		for await (const raw of io.lines) {
			const line = raw.trim();
			if (line === '/quit' || line === '/exit') break;
			if (line.startsWith('/wait')) {
				const minutes = Number(line.slice(5).trim() || '1');
				offsetMs += minutes * 60_000;
				io.out(`     [${minutes} min later]\n`);
				for (const fired of await engine.fireDueTimers(clock.now())) show(fired.actions);
			} else if (line === '/release') {
				const released = await engine.release(botId, clientId);
				io.out(
					released.released
						? '     [the bot has the conversation again]\n'
						: '     [not handed off]\n',
				);
			} else if (line === '/state') {
				const c = await engine.conversation(botId, clientId);
				io.out(
					`     ${c ? JSON.stringify({ scenario: c.scenario, state: c.state, vars: c.vars, tags: c.tags, handedOff: c.handedOff, timer: c.timer }) : '[no conversation yet]'}\n`,
				);
			} else if (line === '/help') {
				io.out(USAGE);
			} else if (line !== '') {
				const result = await engine.handle({
					message_id: `cli_${Date.now()}_${++n}`,
					client_id: clientId,
					bot_id: botId,
					text: line,
					channel: 'cli',
					timestamp: new Date(clock.now()).toISOString(),
				});
				show(result.actions);
				if (result.handoff) io.out('     [handed to a human: the bot is silent until /release]\n');
				else if (result.status === 'silenced')
					io.out('     [a human has this conversation; /release to give it back]\n');
				if (result.conversation?.ended)
					io.out('     [conversation ended: the next message starts over]\n');
			}
			prompt();
		}
	} finally {
		await close();
	}
	return 0;
}

function parseArgs(args: readonly string[]): Options {
	const files: string[] = [];
	const flags = new Map<string, string>();
	for (let i = 0; i < args.length; i++) {
		const arg = args[i];
		if (!arg.startsWith('--')) {
			files.push(arg);
			continue;
		}
		const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
		const value = inline ?? args[++i];
		if (value === undefined) throw new Error(`--${name} needs a value`);
		// --call may be given once per workflow.
		const before = name === 'call' ? flags.get(name) : undefined;
		flags.set(name, before ? `${before},${value}` : value);
	}
	return { files, flags };
}

if (require.main === module) {
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
