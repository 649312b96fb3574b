/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/require-node-api-error -- end-to-end tooling: runs a real n8n, never loaded by n8n */
import { productionUrl } from '../../scripts/lib/demo-setup';
import type { RunningN8n } from '../../scripts/lib/n8n-process';
import { startEmulator, type RunningEmulator } from '../emulator';
import { admin, sentTexts } from '../helpers/emulator';
import { BURST_SCOPE, burstWorkflow, sleep } from './burst';
import { runsSince } from './executions-of';
import { watchStore, type Watched } from './store-watch';
import { until } from './conversation';
import {
	onStore,
	psql,
	SHARED_STORES,
	sharedBudgetApi,
	startQueueMode,
	STATE_DBS,
	subscribeToMessages,
	type QueueMode,
	type StoreKind,
} from './queue';

jest.setTimeout(900_000);

const SECRET = ['whsec', 'queue', 'pause'].join('_');
const CLIENTS = 10;
// Two requests per 5 s: ten replies at once wait up to 25 s for the budget, on both workers.
const LIMIT = 2;
const WINDOW_MS = 5000;
/**
 * Longer than the node's lease (60 s, renewed every 20 s) and the takeover after it: the other
 * worker's Run Due Work (every 5 s) reads each reply's history and sends it, two requests per reply.
 */
const PAUSE_MS = 100_000;

/** One store's run: its emulator, its queue-mode n8n, its clients. */
type Run = { store: StoreKind; emulator: RunningEmulator; n8n: QueueMode; clientIds: string[] };

// Queue mode (main, two workers, Redis store, the key's budget shared through Redis). A worker
// frozen with SIGSTOP while its replies wait for the budget, for longer than their leases: the
// other worker takes them over; the frozen one, woken, must send none of them again.
// The replies' leases live in the store: Redis, or PostgreSQL (n8n's own database). Once in CI
// (Redis) and once before (PostgreSQL), one reply of 11 went out twice when the pause came before
// most executions had started; not seen again in 6 runs since (3 per store): a reply sent twice prints each
// copy's time and the client's history reads, to tell which worker sent it.
//
// The two stores are paused side by side (each pause is 100 s of waiting), once both are set up:
// an n8n's set-up blocks this process for seconds (its CLI imports), which must not fall in the
// other's pause. test.concurrent bodies start before any beforeAll: the tests set up themselves.
describe('queue mode: a worker paused past its lease sends no reply twice', () => {
	let all: Promise<Map<StoreKind, Run>> | undefined;
	it.concurrent.each(SHARED_STORES)(
		'state in %s: every reply is sent exactly once',
		async (store) => {
			all ??= startRunsInTurn(SHARED_STORES);
			const run = (await all).get(store) as Run;
			try {
				await pauseAndCheck(run);
			} finally {
				await stopRun(run);
			}
		},
		1_200_000,
	);
});

/** Each store's run, set up one after the other; those set up are stopped if one fails. */
async function startRunsInTurn(stores: StoreKind[]): Promise<Map<StoreKind, Run>> {
	const runs = new Map<StoreKind, Run>();
	try {
		for (const store of stores) runs.set(store, await startRun(store));
	} catch (error) {
		for (const run of runs.values()) await stopRun(run);
		throw error;
	}
	return runs;
}

async function stopRun(run: Run): Promise<void> {
	for (const w of run.n8n.workers) signal(w, 'SIGCONT');
	await run.n8n.stop();
	await run.emulator.close();
}

async function startRun(store: StoreKind): Promise<Run> {
	const emulator = await startEmulator({ rateLimit: LIMIT, rateWindowMs: WINDOW_MS });
	const { body } = await admin<{ ids: string[] }>(emulator, 'POST', '/clients', {
		count: CLIENTS,
	});
	const workflow = onStore(store, burstWorkflow());
	// Both runs' budgets in one Redis database: each is keyed by its emulator's URL.
	const api = sharedBudgetApi(emulator, {
		limit: LIMIT,
		windowMs: WINDOW_MS,
		db: STATE_DBS.pauseBudget,
	});
	// Workers say which executions they started.
	const n8n = await startQueueMode(api, SECRET, [workflow], {
		stateDb: STATE_DBS.pause,
		store,
		env: { N8N_LOG_LEVEL: 'info' },
	}).catch(async (error: unknown) => {
		await emulator.close();
		throw error;
	});
	await subscribeToMessages(emulator, productionUrl(n8n.main.url, workflow), SECRET);
	return { store, emulator, n8n, clientIds: body.data.ids };
}

async function pauseAndCheck(run: Run): Promise<void> {
	const { store, emulator, n8n, clientIds } = run;
	const started = n8n.workers.map((w) => startedExecutions(w));
	await Promise.all(
		clientIds.map(async (client) => {
			await admin(emulator, 'POST', '/inbound', {
				bot_id: 'bot_shop',
				client_id: client,
				text: 'm1',
				message_id: `${client}-m1`,
			});
		}),
	);
	// Each worker leases the replies of the executions it took, then waits for the budget:
	// the pause waits for most executions to start (a busy machine starts them late), then
	// for their steps to be saved.
	const took = await until(
		() => n8n.workers.map((w, i) => startedExecutions(w) - started[i]),
		(t) => t[0] + t[1] >= CLIENTS - 2,
		60_000,
	);
	// MB_PAUSE_AFTER_MS=6000: later, so the paused worker holds leased replies, not unapplied messages.
	await sleep(Number(process.env.MB_PAUSE_AFTER_MS ?? 1500));
	const pausedIndex = took[0] >= took[1] ? 0 : 1;
	const paused = n8n.workers[pausedIndex];
	const sentAtPause = await sentCount(run);
	signal(paused, 'SIGSTOP');
	const pausedAt = Date.now();
	const watch = watchStore(n8n, `scenario:${BURST_SCOPE}`, pausedAt);
	await sleep(PAUSE_MS);
	signal(paused, 'SIGCONT');
	const pausedSeconds = Math.round((Date.now() - pausedAt) / 1000);

	await settled(run);
	const watched = await watch.stop();
	const sent = await Promise.all(clientIds.map((c) => sentTexts(emulator, c)));
	const statuses = await storedStatuses(n8n);
	const line = {
		replies: sent.flat().length,
		sentTwice: sent.filter((s) => s.length > 1).length,
		unknown: statuses.unknown ?? 0,
		pausedSeconds,
	};
	process.stdout.write(
		`queue-mode pause test, state in ${store}: ${JSON.stringify(line)} (executions taken before the pause ${took.join(' / ')}, replies sent before it ${sentAtPause}, outbox ${JSON.stringify(statuses)})\n`,
	);
	const twice = clientIds.filter((_, i) => sent[i].length > 1);
	if (twice.length) await explainTwice(run, twice, pausedAt, pausedSeconds);
	// MB_PAUSE_EXPLAIN=1: the report even when every reply was sent, to compare with a failed run.
	if (sent.some((s) => s.length === 0) || process.env.MB_PAUSE_EXPLAIN)
		await explainUnsent(run, pausedAt, paused.process.pid, watched);
	// The pause caught a worker holding executions, and replies still waiting for the budget.
	expect(took[pausedIndex]).toBeGreaterThan(0);
	expect(sentAtPause).toBeLessThan(CLIENTS);
	expect(sent.map((s) => s.length)).toEqual(clientIds.map(() => 1));
	expect(line.unknown).toBe(0);
}

/** For a reply sent twice: each copy's time and the client's requests, in ms from the pause. */
async function explainTwice(
	{ emulator }: Run,
	clients: string[],
	pausedAt: number,
	pausedSeconds: number,
) {
	const { body } = await admin<Array<{ client_id: string; text: string; timestamp: string }>>(
		emulator,
		'GET',
		'/sent-messages',
	);
	const log = await admin<
		Array<{ at: number | string; method: string; path: string; status: number }>
	>(emulator, 'GET', '/requests');
	const ms = (t: number | string) => new Date(t).getTime() - pausedAt;
	for (const client of clients) {
		const copies = body.data
			.filter((m) => m.client_id === client)
			.map((m) => `${m.text} @${ms(m.timestamp)}`);
		const requests = log.body.data
			.filter((r) => r.path.includes(client))
			.map((r) => `${r.method} ${r.path.replace(client, 'C')} ${r.status} @${ms(r.at)}`);
		process.stdout.write(
			`sent twice to ${client} (paused for ${pausedSeconds} s): ${copies.join(', ')}; requests: ${requests.join(', ')}\n`,
		);
	}
}

/**
 * For replies never sent: each unfinished entry as the store keeps it (its lease's owner and
 * times in ms from the pause, the record's version, deadline and due mark), how its due mark
 * and entries changed from the pause on, and the workers' last lines about the scenario.
 */
async function explainUnsent(
	{ n8n }: Run,
	pausedAt: number,
	pausedPid: number | undefined,
	watched: Watched,
) {
	const ms = (t: unknown) => (typeof t === 'number' ? t - pausedAt : t);
	const namespace = `scenario:${BURST_SCOPE}`;
	const dues = await n8n.dues(namespace);
	// Run Due Work's own query, from this process: what the workers' runs should have found.
	const dueNow = await n8n.dueByStore(namespace).catch((e: Error) => `failed: ${e.message}`);
	const { ok, failed } = watched.looked;
	process.stdout.write(
		`due now by the store's query: ${JSON.stringify(dueNow)}; the store watched ${ok} times (${failed} failed)\n`,
	);
	for (const { key, value, version, expires } of await n8n.records(namespace)) {
		const record = JSON.parse(value) as {
			outbox: Array<{ status: string; lease?: Record<string, unknown> } & object>;
		};
		for (const entry of record.outbox.filter((e) => e.status !== 'done')) {
			const lease = entry.lease && {
				...entry.lease,
				until: ms(entry.lease.until),
				since: ms(entry.lease.since),
			};
			process.stdout.write(
				`unsent in ${key} (v${version}, expires ${ms(expires ?? 'never')}, due mark ${key in dues ? ms(dues[key]) : 'none'}): ${JSON.stringify({ ...entry, ...(lease ? { lease } : {}) })}\n`,
			);
			// From the pause on: the due mark and the open entries each time they changed.
			process.stdout.write(`  ${(watched.lines.get(key) ?? []).join('\n  ')}\n`);
		}
	}
	for (const [i, worker] of n8n.workers.entries()) {
		const lines = worker.log().split('\n');
		const tail = lines.filter((l) => /error|fail|lease|scenario/i.test(l)).slice(-15);
		const who = worker.process.pid === pausedPid ? 'paused' : 'other';
		const count = (re: RegExp) => lines.filter((l) => re.test(l)).length;
		// Which executions it ran: the scheduled runs below say what each found.
		const ids = [...worker.log().matchAll(/Worker started execution (\d+)/g)].map((m) => m[1]);
		const runs = `${ids.length} started (${ids.join(' ')}), ${count(/Worker finished execution/)} finished`;
		process.stdout.write(`worker ${i} (${who}), ${runs}, last lines:\n${tail.join('\n')}\n`);
	}
	// What the scheduled runs did meanwhile: each execution since the pause, Run Due Work's summary.
	process.stdout.write(`executions since the pause:\n${runsSince(n8n.database, pausedAt)}\n`);
}

/** Every reply in the store finished, no execution running, and nothing sent for 10 s. */
async function settled(run: Run): Promise<void> {
	const { n8n } = run;
	let last = -1;
	let quietSince = Date.now();
	await until(
		async () => {
			const count = await sentCount(run);
			if (count !== last) [last, quietSince] = [count, Date.now()];
			const statuses = await storedStatuses(n8n);
			const open = (statuses.pending ?? 0) + (statuses.sending ?? 0);
			const running = Number(
				psql(
					"SELECT count(*) FROM execution_entity WHERE status IN ('new', 'running')",
					n8n.database,
				),
			);
			return open === 0 && running === 0 && Date.now() - quietSince >= 10_000;
		},
		(done) => done,
		240_000,
	);
}

async function sentCount({ emulator, clientIds }: Run): Promise<number> {
	const sent = await Promise.all(clientIds.map((c) => sentTexts(emulator, c)));
	return sent.flat().length;
}

/** SIGSTOP or SIGCONT to the worker's whole process group (n8n and its task runners). */
function signal(worker: RunningN8n, name: 'SIGSTOP' | 'SIGCONT'): void {
	try {
		process.kill(-(worker.process.pid as number), name);
	} catch {
		// The group is gone already.
	}
}

function startedExecutions(worker: RunningN8n): number {
	return (worker.log().match(/Worker started execution/g) ?? []).length;
}

/** How many outbox entries of the burst's conversations are in each status, in the store. */
async function storedStatuses(n8n: QueueMode): Promise<Record<string, number>> {
	const counts: Record<string, number> = {};
	for (const { value } of await n8n.records(`scenario:${BURST_SCOPE}`)) {
		const record = JSON.parse(value) as { outbox: Array<{ status: string }> };
		for (const e of record.outbox) counts[e.status] = (counts[e.status] ?? 0) + 1;
	}
	return counts;
}
