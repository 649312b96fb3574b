/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling: temporary files and the examples, never loaded by n8n */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import {
	compileScenario,
	type CompiledScenario,
	RecordingApi,
	ScenarioEngine,
	type HandleResult,
	timerWait,
} from '../../runtime/scenarios';
import type { ScenarioApi } from '../../runtime/scenarios/durability/perform-effect';
import type { EngineOptions } from '../../runtime/scenarios/engine/engine';
import type { ClientProfile } from '../../runtime/scenarios/format/templates';
import { MemoryStore, type StateStore } from '../../runtime/stores';
import { SqliteStore } from '../../runtime/stores/sqlite';
import { main as cliMain } from '../../runtime/cli/scenario';

export const START = Date.UTC(2026, 0, 5, 9, 0, 0);
export const MINUTE = 60_000;

/** Waits (real time, up to 2.5 s) until `test` holds: another task reached a point. */
export async function until(test: () => boolean): Promise<void> {
	for (let i = 0; i < 500 && !test(); i++) await new Promise((r) => setTimeout(r, 5));
	if (!test()) throw new Error('condition never held');
}

/** Holds every send while `held` is set, as a request budget holds a reply for minutes. */
export function holdingApi(chat: Chat) {
	const gate = { held: false, waiting: 0, open: () => {} };
	let opened = Promise.resolve();
	const api: ScenarioApi = {
		sendMessage: async (botId, input) => {
			if (gate.held) {
				gate.waiting++;
				await opened;
			}
			return chat.api.sendMessage(botId, input);
		},
		updateTags: (clientId, change) => chat.api.updateTags(clientId, change),
	};
	const hold = () => {
		gate.held = true;
		opened = new Promise<void>((resolve) => (gate.open = resolve));
	};
	const release = () => {
		gate.held = false;
		gate.open();
	};
	return { api, gate, hold, release };
}

/**
 * A worker that stops (frozen, or dead) after saving the step of cl_ada's message `text` (m2)
 * with its replies decided and the first leased: its sends never return. The chat's scenarios.
 */
export async function stoppedWorker(chat: Chat, leaseMs: number, text = 'one') {
	const scenarios = [chat.engine.scenarios.values().next().value!];
	const stopped = holdingApi(chat);
	stopped.hold();
	const dead = chat.newEngine(scenarios, stopped.api, { leaseMs });
	void dead.handle({ message_id: 'm2', client_id: 'cl_ada', bot_id: 'bot_shop', text });
	await until(() => stopped.gate.waiting === 1);
	return scenarios;
}

/** A scenario document with the boilerplate filled in. */
export function scenario(
	states: Record<string, unknown>,
	extra: Record<string, unknown> = {},
): Record<string, unknown> {
	return { id: 'test', version: 1, start: Object.keys(states)[0], states, ...extra };
}

/** Two replies to every message after a greeting: the order and outcome of each can be seen. */
export function echoTwice(): Record<string, unknown> {
	return scenario({
		a: {
			messages: ['Hello'],
			on: [
				{
					match: { any: true },
					actions: [{ reply: 'You said {{message.text}}' }, { reply: 'Noted' }],
				},
			],
		},
	});
}

export function example(name: string): unknown {
	return JSON.parse(
		readFileSync(path.join(__dirname, '../../examples/scenarios', `${name}.json`), 'utf8'),
	);
}

export type Backend = {
	name: 'memory' | 'sqlite';
	/** A fresh store. */
	open(now: () => number): StateStore;
	/** Another connection to the last store opened: a restarted process, or a second one. */
	reopen(now: () => number): StateStore;
};

/** Every store backend, each test on a fresh store (sqlite: a fresh file in a temporary folder). */
export function backends(): Backend[] {
	let dir: string | undefined;
	let last = '';
	let n = 0;
	let memory: MemoryStore | undefined;
	afterAll(() => {
		if (dir) rmSync(dir, { recursive: true, force: true });
	});
	return [
		{
			name: 'memory',
			open: (now) => (memory = new MemoryStore(now)),
			// One process's memory: a "restart" keeps it only in the sense of a second engine on it.
			reopen: () => {
				if (!memory) throw new Error('no store open');
				return memory;
			},
		},
		{
			name: 'sqlite',
			open: (now) => {
				dir ??= mkdtempSync(path.join(tmpdir(), 'mb-scenarios-'));
				last = path.join(dir, `s${++n}.sqlite`);
				return new SqliteStore(last, now);
			},
			reopen: (now) => new SqliteStore(last, now),
		},
	];
}

export const ADA: ClientProfile = {
	id: 'cl_ada',
	first_name: 'Ada',
	last_name: 'Lovelace',
	email: 'ada@example.com',
	phone: '+442071234567',
	tags: ['customer', 'vip'],
	custom_fields: { loyalty: { tier: 'gold', points: 1200 } },
	orders: [
		{
			order_id: 'ord_1001',
			client_id: 'cl_ada',
			status: 'shipped',
			total: 49.9,
			currency: 'EUR',
			created_at: '2026-01-02T10:00:00.000Z',
			updated_at: '2026-01-03T08:00:00.000Z',
		},
		{
			order_id: 'ord_1002',
			client_id: 'cl_ada',
			status: 'paid',
			total: 12,
			currency: 'EUR',
			created_at: '2026-01-04T10:00:00.000Z',
			updated_at: '2026-01-04T10:00:00.000Z',
		},
	],
};
const GRACE: ClientProfile = { id: 'cl_grace', first_name: 'Grace', tags: ['lead'] };

/** An engine on a virtual clock with a recording API: say something, get the replies back. */
export class Chat {
	time = START;
	readonly clock = { now: () => this.time, sleep: async () => undefined };
	readonly api: RecordingApi;
	readonly store: StateStore;
	engine: ScenarioEngine;
	last: HandleResult | undefined;
	private n = 0;

	constructor(
		scenarios: Array<unknown>,
		options: {
			store?: StateStore;
			/** Opens the store on this chat's clock. */
			openStore?: (now: () => number) => StateStore;
			api?: ScenarioApi;
			clients?: ClientProfile[];
			engine?: Partial<EngineOptions>;
		} = {},
	) {
		this.api = new RecordingApi(options.clients ?? [ADA, GRACE]);
		this.store =
			options.store ?? options.openStore?.(this.clock.now) ?? new MemoryStore(this.clock.now);
		this.engine = this.newEngine(scenarios.map(compiled), options.api ?? this.api, options.engine);
	}

	newEngine(
		scenarios: CompiledScenario[],
		api: ScenarioApi = this.api,
		extra: Partial<EngineOptions> = {},
		store: StateStore = this.store,
	): ScenarioEngine {
		return new ScenarioEngine({
			scenarios,
			store,
			api,
			clock: this.clock,
			wait: timerWait,
			...extra,
		});
	}

	/** The client writes; the texts the bot sent in answer. */
	async say(text: string, client = 'cl_ada', messageId = `m${++this.n}`): Promise<string[]> {
		this.last = await this.engine.handle({
			message_id: messageId,
			client_id: client,
			bot_id: 'bot_shop',
			text,
			channel: 'telegram',
			timestamp: new Date(this.time).toISOString(),
		});
		return replies(this.last);
	}

	/** Time passes; the texts the due timers sent. */
	async wait(minutes: number): Promise<string[]> {
		this.time += minutes * MINUTE;
		const { timers } = await this.engine.runDueWork();
		return timers.flatMap((f) =>
			f.actions.flatMap((a) => (a.kind === 'reply' ? [a.text ?? ''] : [])),
		);
	}

	async state(client = 'cl_ada') {
		return this.engine.conversation('bot_shop', client);
	}
}

export function compiled(doc: unknown): CompiledScenario {
	return isCompiled(doc) ? doc : compileScenario(doc);
}

function isCompiled(value: unknown): value is CompiledScenario {
	return typeof value === 'object' && value !== null && 'machine' in value;
}

function replies(result: HandleResult): string[] {
	return result.actions.flatMap((a) => (a.kind === 'reply' ? [a.text ?? ''] : []));
}

/** Runs the CLI with these arguments and lines typed in; what it printed and its exit code. */
export async function runCli(args: string[], input: string[] = []) {
	let out = '';
	let err = '';
	const code = await cliMain(args, {
		lines: (async function* () {
			yield* input;
		})(),
		out: (t) => (out += t),
		err: (t) => (err += t),
		interactive: false,
	});
	return { code, out, err };
}
