/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { compileScenario, ScenarioEngine, type MessageReceived } from '../runtime/scenarios';
import { HealingSession } from '../runtime/scenarios/engine/healing/session';
import { SqliteStore } from '../runtime/stores/sqlite';
import { stepsScenario } from '../test/e2e/burst';
import { HistoryApi } from './history-api';
import { table } from './lib';

/**
 * What healing from the history costs after a kill, on SQLite: CLIENTS clients write PER messages
 * each; after the first half the process dies. Of the second half, each client's first message
 * was answered "starting up" by n8n (never delivered), the second comes back by a retry after the
 * third; a fifth of the clients write nothing more after the kill (the scheduled run heals them).
 * The new process reads each client's history once.
 */
const CLIENTS = Number(process.env.BENCH_HEAL_CLIENTS ?? 500);
const PER = 20;
const HALF = PER / 2;
const CONCURRENCY = 50;
const steps = compileScenario(JSON.parse(stepsScenario()));
const T0 = Date.now() - 60_000;

const event = (c: number, i: number): MessageReceived => ({
	message_id: `cl_${c}-m${i}`,
	client_id: `cl_${c}`,
	bot_id: 'bot_shop',
	text: `m${i}`,
	timestamp: new Date(T0 + i * 1000 + c).toISOString(),
});

/** What the service does for one client, in turn: the client writes (listed in its history), a delivery. */
type Step = { write?: MessageReceived; deliver?: MessageReceived };
const wrote = (e: MessageReceived): Step => ({ write: e, deliver: e });

/** Runs each client's steps in its order, clients side by side. */
async function run(engine: ScenarioEngine, api: HistoryApi, byClient: Step[][]) {
	const statuses: Record<string, number> = {};
	let healed = 0;
	let next = 0;
	await Promise.all(
		Array.from({ length: CONCURRENCY }, async () => {
			while (next < byClient.length) {
				for (const step of byClient[next++]) {
					if (step.write) api.wrote(step.write);
					if (!step.deliver) continue;
					const r = await engine.handle(step.deliver);
					statuses[r.status] = (statuses[r.status] ?? 0) + 1;
					healed += (r.alsoApplied ?? []).filter((a) => a.healed).length;
				}
			}
		}),
	);
	return { statuses, healed };
}

const range = (from: number, to: number) =>
	Array.from({ length: to - from + 1 }, (_, k) => from + k);

async function main(): Promise<void> {
	const dir = mkdtempSync(path.join(tmpdir(), 'mb-bench-heal-'));
	const out = (line = '') => process.stdout.write(`${line}\n`);
	const store = new SqliteStore(path.join(dir, 'heal.sqlite'));
	try {
		const api = new HistoryApi();
		const clients = range(0, CLIENTS - 1);
		const engineOf = (clock: { now(): number }) =>
			new ScenarioEngine({
				scenarios: [steps],
				store,
				api,
				clock,
				healing: { session: new HealingSession(clock.now()) },
			});
		const before = engineOf({ now: () => Date.now() });
		const t1 = performance.now();
		await run(
			before,
			api,
			clients.map((c) => range(1, HALF).map((i) => wrote(event(c, i)))),
		);
		const beforeMs = performance.now() - t1;
		const readsBefore = api.reads;
		// The kill: each client's next two messages are written while n8n is down or starting.
		for (const c of clients) for (const i of [HALF + 1, HALF + 2]) api.wrote(event(c, i));
		// The new process; its clock runs on so that the scheduled run heals (from 5 s after a start).
		let skew = 0;
		const after = engineOf({ now: () => Date.now() + skew });
		const writing = clients.filter((c) => c % 5 !== 0);
		const later = (c: number): Step[] => [
			wrote(event(c, HALF + 3)),
			{ deliver: event(c, HALF + 2) }, // its retry, after a newer message
			...range(HALF + 4, PER).map((i) => wrote(event(c, i))),
		];
		const t2 = performance.now();
		const delivered = await run(after, api, writing.map(later));
		const afterMs = performance.now() - t2;
		skew = 6000;
		const t3 = performance.now();
		const due = await after.runDueWork(undefined, CLIENTS);
		const dueMs = performance.now() - t3;
		const readsAfter = api.reads - readsBefore;
		const inOrder = clients.filter((c) => {
			const texts = api.replies(`cl_${c}`).map((t) => t.replace(/^s\d+ got /, ''));
			const wanted = writing.includes(c) ? PER : HALF + 2;
			return texts.join() === Array.from({ length: wanted }, (_, k) => `m${k + 1}`).join();
		}).length;
		const afterMessages = writing.length * (PER - HALF) + (CLIENTS - writing.length) * 2;
		out(
			`Healing after a kill: ${CLIENTS} clients, SqliteStore; ${CLIENTS * HALF} messages before the kill, ${afterMessages} written after it (each client's first one never delivered, its second delivered after its third; a fifth of the clients write nothing more).`,
		);
		out(
			table([
				{
					phase: 'before the kill',
					messages: String(CLIENTS * HALF),
					'history reads': String(readsBefore),
					'reads/1,000 messages': ((readsBefore * 1000) / (CLIENTS * HALF)).toFixed(1),
					ms: Math.round(beforeMs).toLocaleString('en'),
					statuses: '',
				},
				{
					phase: 'after it: deliveries',
					messages: String(writing.length * (PER - HALF - 1)),
					'history reads': String(readsAfter - due.healing.length),
					'reads/1,000 messages': '',
					ms: Math.round(afterMs).toLocaleString('en'),
					statuses: JSON.stringify({ ...delivered.statuses, healed: delivered.healed }),
				},
				{
					phase: 'after it: Run Due Work',
					messages: String((CLIENTS - writing.length) * 2),
					'history reads': String(due.healing.length),
					'reads/1,000 messages': '',
					ms: Math.round(dueMs).toLocaleString('en'),
					statuses: JSON.stringify({ healed: due.messages.filter((m) => m.healed).length }),
				},
			]),
		);
		out(
			`After the kill: ${readsAfter} history reads for ${CLIENTS} conversations (${((readsAfter * 1000) / afterMessages).toFixed(1)} per 1,000 messages written after it); ${inOrder} of ${CLIENTS} transcripts are every message written, in order, once.`,
		);
	} finally {
		await store.close();
		rmSync(dir, { recursive: true, force: true });
	}
}

main().catch((error: unknown) => {
	process.stderr.write(
		`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exitCode = 1;
});
