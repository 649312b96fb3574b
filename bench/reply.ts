/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling: runs a real n8n, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { prepareN8n } from '../scripts/lib/demo-setup';
import {
	freePort,
	startN8n,
	waitForWebhook,
	type N8nOptions,
	type RunningN8n,
} from '../scripts/lib/n8n-process';
import { startEmulator, type RunningEmulator } from '../test/emulator';
import { admin } from './lib';
import { loadAverage } from './process-cpu';
import {
	idleCpuPerMs,
	measureSetup,
	Replies,
	warmSetup,
	type Load,
	type Setup,
} from './reply-measure';
import { report, type Result } from './reply-report';
import { REPLY_PATHS, replyWorkflows } from './reply-workflows';

/**
 * Time from a client's message to the bot's reply, both read from the service's (emulator's)
 * clock, for one trivial bot built three ways in one real n8n: the Messaging Bot Trigger on n8n's
 * webhook URL → Scenario, the Own Port Trigger → Scenario, and n8n's Webhook node → HTTP Request
 * built by hand (the baseline). Each setup has its own bot and subscription; only the measured
 * one's subscription is active. Idle (one message at a time) and at a steady rate; n8n's CPU per
 * message from /proc (its whole process group), less what the idle n8n uses in as long, and the
 * part of it on isolated-vm's threads (n8n's expression isolates: built, run and disposed of by
 * n8n, not by the nodes), so a run shows what is n8n's own and what the ratio is outside it.
 *
 * n8n runs twice, on the same data: with its default settings, then with
 * N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true (n8n builds an expression isolate only when an expression
 * is evaluated); every setup, the baseline included, runs under the same settings in each.
 * BENCH_IDLE (messages), BENCH_RATE (messages/s), BENCH_RATE_SECONDS, BENCH_REORDER_SECONDS (the
 * Scenario nodes' Reorder Window; unset: the node's default), BENCH_SETUPS (some of trigger, port,
 * hand), BENCH_N8N (some of default, lazy), BENCH_CPU_PROFILE (a folder: n8n writes V8 CPU profiles
 * there when it stops).
 */
const LOAD: Load = {
	idleMessages: Number(process.env.BENCH_IDLE ?? 20),
	rate: Number(process.env.BENCH_RATE ?? 2),
	rateSeconds: Number(process.env.BENCH_RATE_SECONDS ?? 20),
};
const CLIENTS = 10;
/** Messages per client that warm each setup before any is measured. */
const WARM_ROUNDS = 2;
const SECRET = ['whsec', 'reply', 'bench'].join('_');

/** n8n's settings each run uses. */
const N8N_RUNS: Record<string, { title: string; env: Record<string, string> }> = {
	default: { title: "n8n's default settings", env: {} },
	lazy: {
		title: 'N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true',
		env: { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' },
	},
};

/** The user folder with the package, credentials and the three workflows imported and published. */
async function prepare(e: RunningEmulator) {
	const userFolder = mkdtempSync(path.join(tmpdir(), 'mb-reply-'));
	const options: N8nOptions = { userFolder, port: await freePort(), brokerPort: await freePort() };
	const ownPort = await freePort();
	const api = { baseUrl: e.baseUrl, apiKey: e.apiKey };
	const reorder = process.env.BENCH_REORDER_SECONDS;
	const scenarioOptions = reorder === undefined ? {} : { reorderWindowSeconds: Number(reorder) };
	prepareN8n(
		options,
		{ ...api, rateLimit: 1_000_000 },
		SECRET,
		replyWorkflows(ownPort, api, scenarioOptions),
	);
	const url = `http://127.0.0.1:${options.port}`;
	const all: Setup[] = [
		{
			name: 'Messaging Bot Trigger → Scenario',
			bot: 'bot_bench_trigger',
			url: `${url}/webhook/${REPLY_PATHS.trigger}/messaging-bot`,
		},
		{
			name: 'Own Port Trigger → Scenario',
			bot: 'bot_bench_port',
			url: `http://127.0.0.1:${ownPort}/messaging-bot`,
		},
		{
			name: 'Webhook → HTTP Request (by hand)',
			bot: 'bot_bench_hand',
			url: `${url}/webhook/${REPLY_PATHS.handBuilt}`,
		},
	];
	const picked = (process.env.BENCH_SETUPS ?? 'trigger,port,hand').split(',');
	const setups = all.filter((_, i) => picked.includes(['trigger', 'port', 'hand'][i]));
	return { userFolder, options, setups };
}

/** Each setup's bot and (inactive) subscription, once its URL answers. */
async function subscribe(e: RunningEmulator, setups: Setup[]): Promise<void> {
	for (const s of setups) {
		await waitForWebhook(s.url);
		if (s.subscription) continue;
		await admin(e, 'POST', '/bots', { id: s.bot, name: s.name });
		const saved = (await admin(e, 'POST', '/subscriptions', {
			url: s.url,
			secret: SECRET,
			events: ['message.received'],
		})) as { subscription: { id: string } };
		s.subscription = saved.subscription.id;
		await admin(e, 'PATCH', `/subscriptions/${s.subscription}`, { active: false });
	}
}

/** One n8n run (started with `env`, stopped after): every setup measured in turn. */
async function measureRun(
	e: RunningEmulator,
	prepared: Awaited<ReturnType<typeof prepare>>,
	run: string,
	clients: string[],
): Promise<string> {
	const loadBefore = loadAverage();
	const options: N8nOptions = { ...prepared.options, env: { ...N8N_RUNS[run].env } };
	const profile = process.env.BENCH_CPU_PROFILE;
	if (profile)
		options.env = {
			...options.env,
			NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(profile, run)}`,
		};
	const n8n: RunningN8n = await startN8n(options);
	try {
		await subscribe(e, prepared.setups);
		const pgid = n8n.process.pid as number;
		const before = await idleCpuPerMs(pgid);
		const replies = new Replies(e);
		for (const s of prepared.setups)
			await warmSetup(e, replies, s, clients, WARM_ROUNDS, `${run} `);
		const results: Result[] = [];
		for (const s of prepared.setups) {
			const measured = await measureSetup(e, n8n, replies, s, clients, LOAD, `${run} `);
			results.push({ s, ...measured });
			process.stderr.write(`${N8N_RUNS[run].title}: ${s.name} done\n`);
		}
		const idle = { before, after: await idleCpuPerMs(pgid) };
		return report(N8N_RUNS[run].title, results, idle, loadBefore, LOAD);
	} finally {
		await n8n.stop();
	}
}

async function main(): Promise<void> {
	const e = await startEmulator({ rateLimit: 1_000_000, rateWindowMs: 60_000 });
	const prepared = await prepare(e);
	try {
		const { ids: clients } = (await admin(e, 'POST', '/clients', { count: CLIENTS })) as {
			ids: string[];
		};
		const runs = (process.env.BENCH_N8N ?? 'default,lazy').split(',').filter((r) => r in N8N_RUNS);
		for (const run of runs)
			process.stdout.write(`${await measureRun(e, prepared, run, clients)}\n`);
	} finally {
		rmSync(prepared.userFolder, { recursive: true, force: true });
		await e.close();
	}
}

void main().catch((error: Error) => {
	process.stderr.write(`${error.stack ?? error.message}\n`);
	process.exit(1);
});
