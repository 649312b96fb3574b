/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- benchmark tooling, never loaded by n8n */
import { spawn } from 'node:child_process';
import path from 'node:path';

import { closeBudgets } from '../runtime/api';
import { startEmulator, type RunningEmulator } from '../test/emulator';
import { admin, benchClient, fmt, table } from './lib';

/**
 * 1,000 tag updates against the optimum the limit allows: 100 per window, so the last batch
 * cannot start before 9 windows have passed. In one process (1 and 10 callers) and in two worker
 * processes on one key (the budget shared through Redis, and each counting alone); then a
 * client's reply during a job of 300 updates, with and without priority. The window is scaled to
 * WINDOW_MS. A ratio of 1.00 is the best possible.
 */
const UPDATES = 1_000;
const LIMIT = 100;
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 1_000);
const REDIS_URL = process.env.BENCH_REDIS ?? 'redis://127.0.0.1:6379/9';
const optimum = (n: number) => Math.floor((n - 1) / LIMIT) * WINDOW_MS;

type Row = Record<string, string | number>;

async function freshClients(e: RunningEmulator, count: number): Promise<string[]> {
	await admin(e, 'POST', '/reset');
	return ((await admin(e, 'POST', '/clients', { count })) as { ids: string[] }).ids;
}

async function refused(e: RunningEmulator): Promise<number> {
	const log = (await admin(e, 'GET', '/requests')) as Array<{ status: number }>;
	return log.filter((r) => r.status === 429).length;
}

async function inOneProcess(e: RunningEmulator, callers: number): Promise<Row> {
	const queue = await freshClients(e, UPDATES);
	const client = await benchClient(e, LIMIT, WINDOW_MS);
	const started = performance.now();
	await Promise.all(
		Array.from({ length: callers }, async () => {
			for (let id = queue.shift(); id; id = queue.shift())
				await client.updateTags(id, { add: ['customer'] });
		}),
	);
	const ms = performance.now() - started;
	await client.close();
	return row(`1 process, ${callers} callers`, client.requestCount, await refused(e), ms);
}

/** Two OS processes, 500 updates each, 10 callers each, started together. */
async function inTwoProcesses(e: RunningEmulator, shared: boolean): Promise<Row> {
	const ids = await freshClients(e, UPDATES);
	const { api_key: apiKey } = (await admin(e, 'POST', '/keys')) as { api_key: string };
	const workers = [ids.slice(0, UPDATES / 2), ids.slice(UPDATES / 2)].map((part) =>
		worker([
			e.baseUrl,
			apiKey,
			String(LIMIT),
			String(WINDOW_MS),
			'10',
			shared ? REDIS_URL : '-',
			part.join(','),
		]),
	);
	await Promise.all(workers.map((w) => w.ready));
	const started = Date.now();
	for (const w of workers) w.go();
	const results = await Promise.all(workers.map((w) => w.done));
	const ms = Math.max(...results.map((r) => r.finished)) - started;
	const requests = results.reduce((sum, r) => sum + r.requests, 0);
	const label = shared
		? '2 workers, budget shared through Redis'
		: '2 workers, each counting alone';
	return row(label, requests, await refused(e), ms);
}

function worker(args: string[]) {
	const child = spawn(
		process.execPath,
		['--import', 'tsx', path.join(__dirname, 'tag-worker.ts'), ...args],
		{ stdio: ['pipe', 'pipe', 'inherit'] },
	);
	let out = '';
	child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
	const ready = new Promise<void>((resolve) => {
		const check = () => (out.startsWith('ready\n') ? resolve() : setTimeout(check, 20));
		check();
	});
	const done = new Promise<{ finished: number; requests: number }>((resolve, reject) =>
		child.on('exit', (code) =>
			code === 0
				? resolve(JSON.parse(out.slice('ready\n'.length)))
				: reject(new Error(`exit ${code}`)),
		),
	);
	return { ready, done, go: () => child.stdin.end('go\n') };
}

function row(run: string, requests: number, refusals: number, ms: number): Row {
	return {
		run,
		requests,
		'429s': refusals,
		'wall time': fmt(ms),
		optimum: fmt(optimum(UPDATES)),
		'ratio to optimum': (ms / optimum(UPDATES)).toFixed(2),
	};
}

/** A job of 300 updates; 1.5 windows in, a client's reply on the same key. */
async function replyDuringJob(e: RunningEmulator, priority: 'interactive' | 'bulk'): Promise<Row> {
	const queue = await freshClients(e, 300);
	const job = await benchClient(e, LIMIT, WINDOW_MS);
	const bot = await benchClient(e, LIMIT, WINDOW_MS, { apiKeyOf: job, priority });
	// The bot has answered before: the key is one that answers clients.
	await bot.sendMessage('bot_shop', { client_id: 'cl_ada', text: 'earlier' });
	const started = performance.now();
	const running = Promise.all(
		Array.from({ length: 10 }, async () => {
			for (let id = queue.shift(); id; id = queue.shift())
				await job.updateTags(id, { add: ['customer'] });
		}),
	);
	await new Promise((resolve) => setTimeout(resolve, WINDOW_MS * 1.5));
	const asked = performance.now();
	await bot.sendMessage('bot_shop', { client_id: 'cl_ada', text: 'Your order has shipped' });
	const latency = performance.now() - asked;
	await running;
	const ms = performance.now() - started;
	await Promise.all([job.close(), bot.close()]);
	return {
		reply: priority === 'interactive' ? 'interactive (replies first)' : 'bulk (no priority)',
		'reply latency': `${latency.toFixed(0)} ms`,
		'one slot': `${(WINDOW_MS / LIMIT).toFixed(0)} ms`,
		'job wall time': fmt(ms),
		'job + reply optimum': fmt(optimum(301)),
		'ratio to optimum': (ms / optimum(301)).toFixed(2),
		'429s': await refused(e),
	};
}

async function main(): Promise<void> {
	const e = await startEmulator({ rateLimit: LIMIT, rateWindowMs: WINDOW_MS, seed: true });
	const rows = [
		await inOneProcess(e, 1),
		await inOneProcess(e, 10),
		await inTwoProcesses(e, true),
		await inTwoProcesses(e, false),
	];
	const replies = [await replyDuringJob(e, 'interactive'), await replyDuringJob(e, 'bulk')];
	await e.close();
	await closeBudgets();
	process.stdout.write(
		`${UPDATES} tag updates at ${LIMIT} requests per ${WINDOW_MS} ms\n${table(rows)}\n\n` +
			`A client's reply 1.5 windows into a job of 300 tag updates on the same key\n${table(replies)}\n`,
	);
}

void main();
