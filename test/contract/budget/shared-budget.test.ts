/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test tooling: spawns processes that share a budget through Redis */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import path from 'node:path';

import { Redis } from 'ioredis';

import { RedisWindow, RequestBudgetError } from '../../../runtime/api/budget/redis-window';
import { mostInAnyWindow } from '../../helpers/busiest-window';

const REDIS_URL = process.env.MESSAGING_BOT_TEST_REDIS ?? 'redis://127.0.0.1:6379/0';
const worker = path.join(__dirname, 'budget-worker.ts');
const LIMIT = 40;
const WINDOW_MS = 1_000;

type Run = { asked: number; granted: number[] };
type Worker = {
	child: ChildProcessByStdio<Writable, Readable, null>;
	ready: Promise<void>;
	done: Promise<Run>;
};

function redisOptions() {
	const url = new URL(REDIS_URL);
	return { host: url.hostname, port: Number(url.port), db: Number(url.pathname.slice(1) || 0) };
}

afterAll(async () => {
	const redis = new Redis(REDIS_URL);
	const keys = await redis.keys('messaging-bot:budget:{test-*');
	if (keys.length > 0) await redis.del(...keys);
	await redis.quit();
});

/** Starts a worker process; it takes `count` slots, `callers` at a time, once told to go. */
function start(budgetId: string, count: number, callers: number, priority = 'bulk'): Worker {
	// Node itself with tsx's loader (not tsx's CLI, which runs a second process): SIGKILL hits the worker.
	const child = spawn(
		process.execPath,
		[
			'--import',
			'tsx',
			worker,
			REDIS_URL,
			budgetId,
			String(LIMIT),
			String(WINDOW_MS),
			String(count),
			String(callers),
			priority,
		],
		{ stdio: ['pipe', 'pipe', 'inherit'] },
	);
	let out = '';
	const ready = new Promise<void>((resolve) =>
		child.stdout.on('data', (chunk: Buffer) => {
			out += chunk.toString();
			if (out.startsWith('ready\n')) resolve();
		}),
	);
	const done = new Promise<Run>((resolve, reject) =>
		child.on('exit', (code) =>
			code === 0
				? resolve(JSON.parse(out.slice('ready\n'.length)) as Run)
				: reject(new Error(`exit ${code}`)),
		),
	);
	return { child, ready, done };
}

describe('a request budget shared through Redis by several processes', () => {
	it('never grants more than the limit in any window across processes, and shares it fairly', async () => {
		const id = `test-${randomUUID()}`;
		const workers = [start(id, 100, 8), start(id, 100, 8)];
		await Promise.all(workers.map((w) => w.ready));
		for (const w of workers) w.child.stdin.end('go\n');
		const [a, b] = await Promise.all(workers.map((w) => w.done));
		const all = [...a.granted, ...b.granted];
		expect(all).toHaveLength(200);
		expect(mostInAnyWindow(all, WINDOW_MS)).toBeLessThanOrEqual(LIMIT);
		// 200 slots at 40 a window need 4 windows after the first: the budget wastes little. A
		// process starved of the CPU under the full suite may miss one turn (5.1 s seen once).
		const span = Math.max(...all) - Math.min(a.asked, b.asked);
		expect(span).toBeLessThan(5 * (WINDOW_MS + 10) + 600);
		// The first window goes to whoever asks first; from then on, while both wait, they share it.
		const contended = Math.min(...all) + WINDOW_MS;
		const firstDone = Math.min(Math.max(...a.granted), Math.max(...b.granted));
		// (The last window is left out: a process whose callers are nearly done stops asking.)
		const share = (run: Run) =>
			run.granted.filter((t) => t > contended && t <= firstDone - WINDOW_MS).length;
		const contendedSlots = share(a) + share(b);
		expect(contendedSlots).toBeGreaterThanOrEqual(LIMIT);
		// Within a fifth: a process starved of the CPU on a busy machine misses turns (56 / 44 seen
		// under the full suite's load; 1 s windows); one that took the other's part would be 80 / 28.
		expect(Math.abs(share(a) - share(b))).toBeLessThanOrEqual(Math.max(2, contendedSlots / 5));
	}, 60_000);

	it("serves another process's interactive request before any waiting bulk work", async () => {
		const id = `test-${randomUUID()}`;
		// The key has answered a client lately: bulk work leaves a slot of each window free.
		const earlier = new RedisWindow(redisOptions(), id, LIMIT, WINDOW_MS);
		const taken = await earlier.take('interactive', new Set());
		expect(taken).toHaveProperty('slot');
		await earlier.settle((taken as { slot: string }).slot);
		const settled = Date.now();
		await earlier.close();
		const job = start(id, 160, 8);
		const reply = start(id, 1, 1, 'interactive');
		await Promise.all([job.ready, reply.ready]);
		// The earlier reply's slot has left the window; the key still counts as answering.
		await new Promise((resolve) =>
			setTimeout(resolve, Math.max(0, settled + WINDOW_MS + 100 - Date.now())),
		);
		job.child.stdin.end('go\n');
		// The job fills the first window; the reply asks while the job's rest waits.
		await new Promise((resolve) => setTimeout(resolve, 300));
		reply.child.stdin.end('go\n');
		const [bulk, interactive] = await Promise.all([job.done, reply.done]);
		const answered = interactive.granted[0];
		// The job has every slot it may take (40, less the one kept) and waits for the window;
		// the reply takes the slot bulk work leaves free, at once.
		const firstFree = Math.min(...bulk.granted) + WINDOW_MS + 10;
		expect(interactive.asked).toBeLessThan(firstFree - WINDOW_MS / 2);
		expect(bulk.granted.filter((t) => t < interactive.asked)).toHaveLength(LIMIT - 1);
		// Served from the slot bulk work left free, not from the next window (a fixed bound in ms
		// failed on two loaded cores: 63 ms once).
		expect(answered).toBeLessThan(firstFree - 10);
		expect(bulk.granted.filter((t) => t <= answered)).toHaveLength(LIMIT - 1);
		expect(mostInAnyWindow([...bulk.granted, answered], WINDOW_MS)).toBeLessThanOrEqual(LIMIT);
	}, 60_000);

	it("stops holding a killed process's turn", async () => {
		const id = `test-${randomUUID()}`;
		const doomed = start(id, 1_000, 4);
		const survivor = start(id, 200, 4);
		const gone = doomed.done.catch(() => undefined);
		await Promise.all([doomed.ready, survivor.ready]);
		for (const w of [doomed, survivor]) w.child.stdin.end('go\n');
		await new Promise((resolve) => setTimeout(resolve, 1_500));
		doomed.child.kill('SIGKILL');
		const killed = Date.now();
		const run = await survivor.done;
		// While both waited the survivor had half of each window; once the killed process's part
		// lapses (its last wait plus a 2 s grace), the survivor has whole windows again.
		const lapsed = killed + WINDOW_MS + 2_000 + 200;
		const shared = run.granted.filter((t) => t > run.asked + WINDOW_MS + 100 && t < killed);
		expect(mostInAnyWindow(shared, WINDOW_MS)).toBeLessThanOrEqual(LIMIT / 2);
		expect(
			mostInAnyWindow(
				run.granted.filter((t) => t > lapsed),
				WINDOW_MS,
			),
		).toBe(LIMIT);
		await gone;
	}, 60_000);

	it('says which Redis it cannot reach, and sends nothing', async () => {
		const window = new RedisWindow({ host: '127.0.0.1', port: 1 }, 'test-unreachable', 10, 1_000);
		const error = await window.take('bulk', new Set()).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(RequestBudgetError);
		expect((error as Error).message).toContain('127.0.0.1:1');
		await window.close();
	});
});
