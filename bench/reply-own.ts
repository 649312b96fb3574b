/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { compileScenario, conversationScope, ScenarioEngine } from '../runtime/scenarios';
import { SqliteStore } from '../runtime/stores/sqlite';
import { receiveDelivery } from '../runtime/webhooks';
import { signBody } from '../runtime/webhooks/signature';
import { HistoryApi } from './history-api';
import { ECHO_SCENARIO } from './reply-workflows';

/**
 * The package's own CPU per delivery on the reply bench's trigger path, without n8n: the
 * trigger's intake (signature, envelope, the inbox append), then, as the Scenario node does in
 * each execution, an engine built and the message handled (its step, store reads and writes, the
 * reply to an in-process service), on a SQLite file. Messages go one at a time, BENCH_GAP_MS apart
 * (default 150 and 500: idle, and the bench's 2 messages/s), so the file's commits and
 * checkpoints come as they do in n8n. CPU from process.cpuUsage (every thread of this process),
 * less what the process uses waiting.
 */
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 60);
const GAPS = (process.env.BENCH_GAP_MS ?? '150,500').split(',').map(Number);
const SECRET = 'whsec_own';

const cpuMs = () => {
	const u = process.cpuUsage();
	return (u.user + u.system) / 1000;
};

type Parts = { intake: number; engine: number; handle: number };

async function deliver(run: Run, i: number, parts: Parts): Promise<void> {
	const data = {
		message_id: `m${run.tag}${i}`,
		client_id: `cl_${i % 10}`,
		bot_id: 'bot_own',
		text: `hello ${i}`,
		timestamp: new Date().toISOString(),
	};
	const now = new Date().toISOString();
	const body = Buffer.from(
		JSON.stringify({ event: 'message.received', data, webhook_id: 'wh_own', timestamp: now }),
	);
	let c = cpuMs();
	const outcome = await receiveDelivery(
		{
			raw: body,
			headers: {
				'x-service-signature': signBody(SECRET, body),
				'x-service-delivery-id': `d${run.tag}${i}`,
				'x-service-event': 'message.received',
			},
		},
		{
			secrets: [SECRET],
			events: ['message.received'],
			listening: false,
			passTestEvents: false,
			scope: 'workflow',
			recordMessages: true,
			inboxScope: run.scope,
			batch: false,
			store: async () => run.store,
		},
	);
	if (outcome.kind !== 'accepted') throw new Error(`not accepted: ${JSON.stringify(outcome)}`);
	const [item] = (await outcome.items()) as Array<typeof data>;
	parts.intake += cpuMs() - c;
	await sleep(5); // n8n starts the execution
	c = cpuMs();
	const engine = new ScenarioEngine({
		scenarios: [run.compiled],
		store: run.store,
		api: run.api,
		clock: { now: () => Date.now(), sleep: async (ms) => await sleep(ms) },
		scope: run.scope,
		formerScope: 'workflow',
		reorderWindowMs: 1000,
	});
	parts.engine += cpuMs() - c;
	c = cpuMs();
	const result = await engine.handle(item);
	parts.handle += cpuMs() - c;
	if (result.actions.length === 0) throw new Error(`no reply: ${result.status}`);
}

type Run = {
	tag: string;
	store: SqliteStore;
	api: HistoryApi;
	compiled: ReturnType<typeof compileScenario>;
	scope: string;
};

/** This process's CPU per ms while it only waits (after the warm-up), taken off the totals. */
async function idlePerMs(): Promise<number> {
	const c0 = cpuMs();
	const t0 = performance.now();
	await sleep(3000);
	return (cpuMs() - c0) / (performance.now() - t0);
}

async function measure(gapMs: number): Promise<string> {
	const folder = mkdtempSync(path.join(tmpdir(), 'mb-reply-own-'));
	const compiled = compileScenario(ECHO_SCENARIO);
	const run: Run = {
		tag: `g${gapMs}-`,
		store: new SqliteStore(path.join(folder, 'state.sqlite')),
		api: new HistoryApi([]),
		compiled,
		scope: conversationScope(compiled.id, ''),
	};
	try {
		// Warm: every client's conversation started, the code paths compiled.
		for (let i = 0; i < 20; i++) await deliver(run, 1000 + i, { intake: 0, engine: 0, handle: 0 });
		const idle = await idlePerMs();
		const parts: Parts = { intake: 0, engine: 0, handle: 0 };
		const commits0 = run.store.commits;
		const c0 = cpuMs();
		const t0 = performance.now();
		for (let i = 0; i < MESSAGES; i++) {
			await deliver(run, i, parts);
			await sleep(gapMs);
		}
		const used = cpuMs() - c0 - idle * (performance.now() - t0);
		const per = (ms: number) => (ms / MESSAGES).toFixed(2);
		return `${MESSAGES} messages ${gapMs} ms apart (this process idle: ${(idle * 1000).toFixed(1)} ms of CPU a second, taken off): ${per(used)} ms of CPU a message in all (the intake ${per(parts.intake)}, building the engine ${per(parts.engine)}, handling ${per(parts.handle)}, the rest the file's checkpoints and timers); ${((run.store.commits - commits0) / MESSAGES).toFixed(1)} commits a message`;
	} finally {
		await run.store.close();
		rmSync(folder, { recursive: true, force: true });
	}
}

async function main(): Promise<void> {
	for (const gap of GAPS) process.stdout.write(`${await measure(gap)}\n`);
}

void main().catch((error: Error) => {
	process.stderr.write(`${error.stack ?? error.message}\n`);
	process.exit(1);
});
