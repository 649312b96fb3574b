/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- end-to-end tooling: runs a real n8n and a Redis of the test's own, never loaded by n8n */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Redis } from 'ioredis';

import { freePort } from '../../scripts/lib/n8n-process';
import { startEmulator, type RunningEmulator } from '../emulator';
import { admin } from '../helpers/emulator';
import {
	burstWorkflow,
	everyWritten,
	expectKept,
	outcome,
	prepareBurstEmulator,
	runBurst,
	sleep,
	type BurstPlan,
} from './burst';
import { timelines } from './kill-diagnostics';
import { scenarioOutputsFor } from './executions-of';
import { explainInRedis, storedInRedis } from './stored';
import { watchStateRedis } from './redis-watch';
import { onRedis, startQueueMode, subscribeToMessages, type QueueMode } from './queue';

jest.setTimeout(900_000);

const SECRET = ['whsec', 'redis', 'loss'].join('_');
const PLAN: BurstPlan = {
	clients: Number(process.env.MB_FAULT_CLIENTS ?? 20),
	perClient: Number(process.env.MB_FAULT_PER_CLIENT ?? 6),
	gapMs: 1000,
	copies: 0,
};
const SERVICE_RETRIES_SCALED = [60_000, 300_000, 900_000].map(
	(ms) => ms / Number(process.env.MB_RETRY_SCALE ?? 15),
);
/** The state store's Redis database in the test's own Redis. */
const STATE_DB = 0;

/** A Redis as a user gets it by default: RDB snapshots on the default schedule, no append-only file. */
function startRedis(port: number, dir: string): ChildProcess {
	return spawn(
		'redis-server',
		[
			'--port',
			String(port),
			'--dir',
			dir,
			'--save',
			'3600 1 300 100 60 10000',
			'--appendonly',
			'no',
		],
		{ stdio: 'ignore' },
	);
}

// Queue mode (main, two workers, PostgreSQL; n8n's queue on the machine's Redis) with the bot's
// state in a Redis of the test's own, SIGKILLed mid-burst after a snapshot and started again: it
// comes back without the writes since. No reply is sent twice, no conversation starts over, and
// the loss is said.
describe('queue mode: the state Redis killed and restarted from an older snapshot', () => {
	let emulator: RunningEmulator;
	let n8n: QueueMode;
	let redis: ChildProcess;
	let url: string;
	let port: number;
	const dir = mkdtempSync(path.join(tmpdir(), 'mb-redis-loss-'));
	const clientIds: string[] = [];

	beforeAll(async () => {
		port = await freePort();
		redis = startRedis(port, dir);
		await sleep(300);
		emulator = await startEmulator();
		clientIds.push(...(await prepareBurstEmulator(emulator, SERVICE_RETRIES_SCALED)));
		const ownPort = await freePort();
		const workflow = onRedis(burstWorkflow({}, {}, ownPort));
		n8n = await startQueueMode(
			{ baseUrl: emulator.baseUrl, apiKey: emulator.apiKey, rateLimit: 100, rateWindowSeconds: 1 },
			SECRET,
			[workflow],
			{ stateDb: STATE_DB, statePort: port, env: JSON.parse(process.env.MB_QUEUE_ENV ?? '{}') },
		);
		url = `http://127.0.0.1:${ownPort}/messaging-bot`;
		await subscribeToMessages(emulator, url, SECRET);
	}, 900_000);

	afterAll(async () => {
		await n8n?.stop();
		await emulator?.close();
		redis?.kill('SIGKILL');
		rmSync(dir, { recursive: true, force: true });
	});

	// Held back from CI from stop 42 to stop 46: docs/state-store-faults.md, "A Redis loss on a
	// loaded machine".
	it('sends no reply twice, starts no conversation over, and says the loss', async () => {
		const started = Date.now();
		let killedAt = Infinity;
		// A worker that first uses the store after the crash (held still until Redis is back).
		const late = process.env.MB_LATE_WORKER;
		const lateWorkers = late === 'all' ? n8n.workers : late === '1' ? [n8n.workers[1]] : [];
		const groupSignal = (name: NodeJS.Signals) =>
			lateWorkers.forEach((w) => process.kill(-(w.process.pid as number), name));
		groupSignal('SIGSTOP');
		const watch = watchStateRedis(() => port);
		const killer = (async () => {
			await sleep(2500);
			const client = new Redis({ port });
			await client.bgsave();
			await client.quit();
			await sleep(2500);
			redis.kill('SIGKILL');
			killedAt = Date.now();
			await sleep(1000);
			redis = startRedis(port, dir);
			await sleep(500);
			groupSignal('SIGCONT');
		})();
		const burst = await runBurst(emulator, () => url, clientIds, PLAN);
		await killer;
		const { final, summary } = await outcome(emulator, clientIds, PLAN, storedSteps, true);
		const written = await everyWritten(emulator, clientIds, PLAN, await storedSteps());
		const markerSeen = watch.stop();
		const logs = [n8n.main, ...n8n.workers].map((p) => p.log()).join('\n');
		const said = (pattern: RegExp) => logs.split('\n').filter((line) => pattern.test(line));
		const warnings = said(/can lose writes it has acknowledged/);
		const losses = said(/lost writes it had acknowledged/);
		process.stdout.write(
			`redis loss test: ${JSON.stringify({
				...summary,
				everyWritten: {
					lost: written.lost,
					late: written.late,
					duplicates: written.duplicates,
					outOfStep: written.outOfStep,
				},
				historyReadsAfterLoss: await historyReadsSince(killedAt),
				inboundRetried: burst.inboundRetried,
				connectWarning: warnings[0],
				lossesSaid: losses.length,
				lossExample: losses[0],
				seconds: Math.round((Date.now() - started) / 1000),
			})}\n`,
		);
		const failed = final.missing.length > 0 || written.duplicates > 0;
		if (failed || process.env.MB_REDIS_LOSS_DUMP === '1') {
			// Kept for reading after the run: every process's whole log.
			const kept = mkdtempSync(path.join(tmpdir(), 'mb-redis-loss-logs-'));
			const labelled = [n8n.main, ...n8n.workers].map(
				(p, i) => `==== ${i === 0 ? 'main' : `worker ${i}`}\n${p.log()}`,
			);
			writeFileSync(path.join(kept, 'n8n.log'), labelled.join('\n'));
			// What the Scenario node said for those clients, execution by execution.
			const clients = [...new Set(final.missing.map((id) => id.replace(/-m\d+$/, '')))];
			const outputs = scenarioOutputsFor(
				n8n.database,
				clients.length > 0 ? clients : clientIds.slice(0, 2),
			);
			writeFileSync(path.join(kept, 'scenario-outputs.log'), outputs);
			// Each n8n process's group: the pids the watch's senders are named by.
			const groups = [n8n.main, ...n8n.workers].map(
				(p, i) => `${i === 0 ? 'main' : `worker ${i}`}: ${groupPids(p.process.pid)}`,
			);
			markerSeen.push(...groups);
			writeFileSync(path.join(kept, 'marker.log'), markerSeen.join('\n'));
			process.stdout.write(
				`redis loss test, the marker as it changed:\n${markerSeen.join('\n')}\n`,
			);
			process.stdout.write(
				`redis loss test, the Scenario node's outputs:\n${outputs.split('\n').slice(0, 80).join('\n')}\n`,
			);
			process.stdout.write(`redis loss test: the processes' logs kept in ${kept}\n`);
			process.stdout.write(
				`redis loss test, what the store and the service saw:${await explainInRedis(port, STATE_DB, final.missing)}${await timelines(emulator, final.missing, started)}\n${said(
					/Messaging Bot|lost|Redis/i,
				)
					.slice(0, 40)
					.join('\n')}\n`,
			);
		}
		expectKept(final, PLAN, PLAN.clients);
		// No reply twice; no conversation begun again (its replies would go back to step 0).
		expect([written.duplicates, written.outOfStep]).toEqual([0, 0]);
		expect(warnings.length).toBeGreaterThan(0);
		expect(losses.length).toBeGreaterThan(0);
	});

	const storedSteps = async () => await storedInRedis(port, STATE_DB);
	/** The clients' histories read since `at` (ms), in all and per client (the most first). */
	const historyReadsSince = async (at: number) => {
		const requests = (
			await admin<Array<{ at: string; method: string; path: string }>>(emulator, 'GET', '/requests')
		).body.data;
		const perClient = new Map<string, number>();
		for (const r of requests) {
			const client = /^\/v1\/clients\/([^/]+)\/messages$/.exec(r.path)?.[1];
			if (r.method !== 'GET' || !client || Date.parse(r.at) < at) continue;
			perClient.set(client, (perClient.get(client) ?? 0) + 1);
		}
		const counts = [...perClient.values()].sort((a, b) => b - a);
		return { all: counts.reduce((a, b) => a + b, 0), perClient: counts.join(' ') };
	};
});

/** The pids of a process group (n8n and the processes it started), or why not. */
function groupPids(pid: number | undefined): string {
	try {
		return execFileSync('pgrep', ['-g', String(pid)], { encoding: 'utf8' })
			.trim()
			.replace(/\n/g, ' ');
	} catch (error) {
		return `(pgrep: ${(error as Error).message.split('\n')[0]})`;
	}
}
