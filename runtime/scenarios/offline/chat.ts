/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the CLI runs in a terminal, never loaded by n8n */
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

import { MessagingBotClient } from '../../api/client';
import type { Clock } from '../../api/clock';
import { MemoryStore } from '../../stores/memory';
import { splitTags } from '../../tags';
import type { CompiledScenario } from '../machine/compile';
import type { ScenarioApi } from '../durability/perform-effect';
import type { ActionReport } from '../durability/record';
import { ScenarioEngine } from '../engine/engine';
import { fixturePort, loadFixtures } from './fixtures';
import { RecordingApi } from './recording-api';
import { timerWait } from './timer-wait';

/** The terminal, or a test standing in for it. */
export interface CliIo {
	lines: AsyncIterable<string>;
	out(text: string): void;
	err(text: string): void;
	/** Show a prompt before each line (a terminal, not a pipe). */
	interactive: boolean;
}

/** The chat's options, as `parseArgs` reads them (`call` once per workflow). */
export interface ChatFlags {
	client?: string;
	'first-name'?: string;
	tags?: string;
	orders?: string;
	call?: string[];
	'base-url'?: string;
	'api-key'?: string;
	bot?: string;
}

type Connection = { api: ScenarioApi; botId: string; close(): Promise<void> };

/** Talks to the scenarios in the terminal until /quit or the end of the input. */
export async function chat(
	scenarios: CompiledScenario[],
	flags: ChatFlags,
	io: CliIo,
	usage: string,
): Promise<number> {
	const clientId = flags.client ?? 'cl_local';
	let offsetMs = 0;
	const clock = {
		now: () => Date.now() + offsetMs,
		sleep: (ms: number, signal?: AbortSignal) => sleep(ms, undefined, { signal }),
	};
	const connection = await connect(flags, clientId, clock, io);
	if (!connection) return 2;
	const { botId } = connection;
	const engine = new ScenarioEngine({
		scenarios,
		store: new MemoryStore(clock.now),
		api: connection.api,
		clock,
		wait: timerWait,
		workflows: fixturePort(await loadFixtures(flags.call ?? [])),
	});
	const baseUrl = flags['base-url'];
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
				// The node's Run Due Work: what it applies and fires shows here as it would there.
				const work = await engine.runDueWork(clock.now());
				for (const done of [...work.messages, ...work.timers]) show(io, done.actions);
			} else if (!(await command(engine, line, { botId, clientId }, io, usage)) && line !== '') {
				await say(engine, line, { botId, clientId, id: `cli_${Date.now()}_${++n}`, clock }, io);
			}
			prompt();
		}
	} finally {
		await connection.close();
	}
	return 0;
}

/** The service (or the emulator) with `--base-url`, else the in-process recorder. */
async function connect(
	flags: ChatFlags,
	clientId: string,
	clock: Clock,
	io: CliIo,
): Promise<Connection | undefined> {
	const baseUrl = flags['base-url'];
	if (!baseUrl) {
		const orders = flags.orders
			? { orders: JSON.parse(await readFile(flags.orders, 'utf8')) as [] }
			: {};
		const api = new RecordingApi([
			{
				id: clientId,
				first_name: flags['first-name'] ?? null,
				tags: splitTags(flags.tags),
				...orders,
			},
		]);
		return { api, botId: flags.bot ?? 'bot_local', close: async () => {} };
	}
	const apiKey = flags['api-key'];
	const botId = flags.bot ?? '';
	if (!apiKey || !botId) {
		io.err('--base-url needs --api-key and --bot as well\n');
		return undefined;
	}
	// Loaded only here: validate, diagram and the offline chat send nothing over the network.
	const { createUndiciTransport } = await import('../../api/undici-transport');
	const transport = createUndiciTransport({ apiKey });
	const api = new MessagingBotClient({ baseUrl, transport, clock, apiKey });
	return { api, botId, close: () => transport.close() };
}

/** /release, /state, /help; false for anything else (a message to send). */
async function command(
	engine: ScenarioEngine,
	line: string,
	who: { botId: string; clientId: string },
	io: CliIo,
	usage: string,
): Promise<boolean> {
	if (line === '/release') {
		const released = await engine.release(who.botId, who.clientId);
		io.out(
			released.released ? '     [the bot has the conversation again]\n' : '     [not handed off]\n',
		);
	} else if (line === '/state') {
		const c = await engine.conversation(who.botId, who.clientId);
		io.out(
			`     ${c ? JSON.stringify({ scenario: c.scenario, state: c.state, vars: c.vars, tags: c.tags, handedOff: c.handedOff, timer: c.timer }) : '[no conversation yet]'}\n`,
		);
	} else if (line === '/help') {
		io.out(usage);
	} else return false;
	return true;
}

/** Sends one client message and prints what the bot did. */
async function say(
	engine: ScenarioEngine,
	text: string,
	message: { botId: string; clientId: string; id: string; clock: Pick<Clock, 'now'> },
	io: CliIo,
): Promise<void> {
	const result = await engine.handle({
		message_id: message.id,
		client_id: message.clientId,
		bot_id: message.botId,
		text,
		channel: 'cli',
		timestamp: new Date(message.clock.now()).toISOString(),
	});
	show(io, result.actions);
	if (result.handoff) io.out('     [handed to a human: the bot is silent until /release]\n');
	else if (result.status === 'silenced')
		io.out('     [a human has this conversation; /release to give it back]\n');
	if (result.conversation?.ended)
		io.out('     [conversation ended: the next message starts over]\n');
}

function show(io: CliIo, actions: ActionReport[]): void {
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
}
