/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling: runs a real n8n, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { prepareN8n } from '../scripts/lib/demo-setup';
import {
	freePort,
	startN8n,
	waitForWebhook,
	type N8nOptions,
	type RunningN8n,
} from '../scripts/lib/n8n-process';
import { startEmulator, type RunningEmulator } from '../test/emulator';
import { admin, percentile, table } from './lib';
import { groupCpuMs, loadAverage } from './process-cpu';
import { REPLY_PATHS, replyWorkflows } from './reply-workflows';

/**
 * Time from a client's message to the bot's reply, both read from the service's (emulator's)
 * clock, for one trivial bot built three ways in one real n8n: the Messaging Bot Trigger on n8n's
 * webhook URL → Scenario, the Own Port Trigger → Scenario, and n8n's Webhook node → HTTP Request
 * built by hand (the baseline). Each setup has its own bot and subscription; only the measured
 * one's subscription is active. Idle (one message at a time) and at a steady rate; n8n's CPU per
 * message from /proc (its whole process group), less what the idle n8n uses in as long.
 * BENCH_IDLE (messages), BENCH_RATE (messages/s), BENCH_RATE_SECONDS, BENCH_REORDER_SECONDS (the
 * Scenario nodes' Reorder Window; unset: the node's default), BENCH_SETUPS (some of trigger, port,
 * hand), BENCH_CPU_PROFILE (a folder: n8n writes V8 CPU profiles there when it stops).
 */
const IDLE_MESSAGES = Number(process.env.BENCH_IDLE ?? 20);
const RATE = Number(process.env.BENCH_RATE ?? 2);
const RATE_SECONDS = Number(process.env.BENCH_RATE_SECONDS ?? 20);
const CLIENTS = 10;
const SECRET = ['whsec', 'reply', 'bench'].join('_');

type Setup = { name: string; bot: string; url: string; subscription?: string };
type Sample = { latency: number; ackMs: number };
type Phase = { samples: Sample[]; cpuMs: number };

/** Waits for the bot's reply to a text; resolves with the reply's time on the service's clock. */
class Replies {
	private seen = 0;
	private readonly found = new Map<string, number>();
	constructor(private readonly emulator: RunningEmulator) {}

	/** The first of `texts` the bot sends the client. */
	async reply(bot: string, client: string, texts: string[], timeoutMs = 30_000): Promise<number> {
		const keys = texts.map((text) => `${bot}\n${client}\n${text}`);
		const deadline = Date.now() + timeoutMs;
		while (Date.now() < deadline) {
			const sent = this.emulator.core.sent;
			for (; this.seen < sent.length; this.seen++)
				this.found.set(
					`${sent[this.seen].bot_id}\n${sent[this.seen].client_id}\n${sent[this.seen].text}`,
					Date.parse(sent[this.seen].timestamp),
				);
			const at = keys.map((k) => this.found.get(k)).find((t) => t !== undefined);
			if (at !== undefined) return at;
			await sleep(5);
		}
		throw new Error(`No reply "${texts[0]}" from ${bot} within ${timeoutMs} ms`);
	}
}

async function write(e: RunningEmulator, bot: string, client: string, text: string) {
	const { message, delivery_ids } = (await admin(e, 'POST', '/inbound', {
		bot_id: bot,
		client_id: client,
		text,
	})) as { message: { timestamp: string }; delivery_ids: string[] };
	return { writtenAt: Date.parse(message.timestamp), delivery: delivery_ids[0] };
}

function ackMs(e: RunningEmulator, delivery: string | undefined): number {
	const attempt = delivery ? e.core.dispatcher.deliveries.get(delivery)?.attempts[0] : undefined;
	return attempt?.duration_ms ?? NaN;
}

/** One message, answered: the latency from the client's message to the reply. */
async function exchange(
	e: RunningEmulator,
	replies: Replies,
	s: Setup,
	client: string,
	text: string,
) {
	const { writtenAt, delivery } = await write(e, s.bot, client, text);
	const repliedAt = await replies.reply(s.bot, client, [`You said ${text}`]);
	return { latency: repliedAt - writtenAt, ackMs: ackMs(e, delivery) };
}

async function phase(
	n8n: RunningN8n,
	backgroundPerMs: number,
	run: () => Promise<Sample[]>,
): Promise<Phase> {
	const pgid = n8n.process.pid as number;
	const cpu0 = groupCpuMs(pgid);
	const t0 = performance.now();
	const samples = await run();
	await sleep(1000); // the executions' last writes
	const elapsed = performance.now() - t0;
	const used = groupCpuMs(pgid) - cpu0 - backgroundPerMs * elapsed;
	return { samples, cpuMs: used / samples.length };
}

async function measureSetup(
	e: RunningEmulator,
	n8n: RunningN8n,
	replies: Replies,
	s: Setup,
	clients: string[],
	backgroundPerMs: number,
) {
	await admin(e, 'PATCH', `/subscriptions/${s.subscription}`, { active: true });
	// Every client's conversation started (its greeting), n8n's paths warm; one at a time, as
	// idle traffic (a burst would be remembered as such for a while).
	for (const [i, c] of clients.entries()) {
		await write(e, s.bot, c, `warm ${i}`);
		// The hand-built flow answers every message; a scenario greets a new conversation.
		await replies.reply(s.bot, c, [`You said warm ${i}`, 'Hello']).catch(() => undefined);
	}
	await sleep(1500);
	const idle = await phase(n8n, backgroundPerMs, async () => {
		const out: Sample[] = [];
		for (let i = 0; i < IDLE_MESSAGES; i++) {
			out.push(await exchange(e, replies, s, clients[i % clients.length], `idle ${i}`));
			await sleep(300);
		}
		return out;
	});
	const total = Math.round(RATE * RATE_SECONDS);
	const steady = await phase(n8n, backgroundPerMs, async () => {
		const start = performance.now();
		return await Promise.all(
			Array.from({ length: total }, async (_, i) => {
				await sleep(Math.max(0, start + (i * 1000) / RATE - performance.now()));
				return await exchange(e, replies, s, clients[i % clients.length], `rate ${i}`);
			}),
		);
	});
	await admin(e, 'PATCH', `/subscriptions/${s.subscription}`, { active: false });
	return { idle, steady };
}

const ms = (n: number) => `${Math.round(n)} ms`;
const stats = (xs: number[]) => {
	const sorted = [...xs].sort((a, b) => a - b);
	return [50, 90, 99].map((p) => ms(percentile(sorted, p))).join(' / ');
};

async function startSetups(e: RunningEmulator) {
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
	const profile = process.env.BENCH_CPU_PROFILE;
	if (profile) options.env = { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(profile)}` };
	const n8n = await startN8n(options);
	const all: Setup[] = [
		{
			name: 'Messaging Bot Trigger → Scenario',
			bot: 'bot_bench_trigger',
			url: `${n8n.url}/webhook/${REPLY_PATHS.trigger}/messaging-bot`,
		},
		{
			name: 'Own Port Trigger → Scenario',
			bot: 'bot_bench_port',
			url: `http://127.0.0.1:${ownPort}/messaging-bot`,
		},
		{
			name: 'Webhook → HTTP Request (by hand)',
			bot: 'bot_bench_hand',
			url: `${n8n.url}/webhook/${REPLY_PATHS.handBuilt}`,
		},
	];
	const picked = (process.env.BENCH_SETUPS ?? 'trigger,port,hand').split(',');
	const setups = all.filter((_, i) => picked.includes(['trigger', 'port', 'hand'][i]));
	for (const s of setups) {
		await waitForWebhook(s.url);
		await admin(e, 'POST', '/bots', { id: s.bot, name: s.name });
		const saved = (await admin(e, 'POST', '/subscriptions', {
			url: s.url,
			secret: SECRET,
			events: ['message.received'],
		})) as { subscription: { id: string } };
		s.subscription = saved.subscription.id;
		await admin(e, 'PATCH', `/subscriptions/${s.subscription}`, { active: false });
	}
	const stop = async () => {
		await n8n.stop();
		rmSync(userFolder, { recursive: true, force: true });
	};
	return { n8n, setups, stop };
}

async function main(): Promise<void> {
	const e = await startEmulator({ rateLimit: 1_000_000, rateWindowMs: 60_000 });
	const loadBefore = loadAverage();
	const { n8n, setups, stop } = await startSetups(e);
	try {
		const { ids: clients } = (await admin(e, 'POST', '/clients', { count: CLIENTS })) as {
			ids: string[];
		};
		const replies = new Replies(e);
		// What n8n uses doing nothing, subtracted from each phase.
		await sleep(5000);
		const c0 = groupCpuMs(n8n.process.pid as number);
		await sleep(10_000);
		const backgroundPerMs = (groupCpuMs(n8n.process.pid as number) - c0) / 10_000;
		const results = [];
		for (const s of setups) {
			results.push({ s, ...(await measureSetup(e, n8n, replies, s, clients, backgroundPerMs)) });
			process.stderr.write(`${s.name} done\n`);
		}
		report(results, backgroundPerMs, loadBefore);
	} finally {
		await stop();
		await e.close();
	}
}

function report(
	results: Array<{ s: Setup; idle: Phase; steady: Phase }>,
	backgroundPerMs: number,
	loadBefore: string,
): void {
	const rows = results.map(({ s, idle, steady }) => ({
		setup: s.name,
		'idle p50 / p90 / p99': stats(idle.samples.map((x) => x.latency)),
		[`${RATE} msg/s p50 / p90 / p99`]: stats(steady.samples.map((x) => x.latency)),
		'ack p50 idle': ms(
			percentile(
				[...idle.samples.map((x) => x.ackMs)].sort((a, b) => a - b),
				50,
			),
		),
		'CPU/message idle / rate': `${ms(idle.cpuMs)} / ${ms(steady.cpuMs)}`,
	}));
	const p50 = (p: Phase) =>
		percentile(
			[...p.samples.map((x) => x.latency)].sort((a, b) => a - b),
			50,
		);
	const [trigger, port, hand] = ['Messaging Bot', 'Own Port', 'by hand'].map(
		(n) => results.find((r) => r.s.name.includes(n)) as (typeof results)[number] | undefined,
	);
	const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
	const lines: string[] = [
		`Reply latency in one real n8n (regular mode, SQLite), ${IDLE_MESSAGES} messages idle, ${RATE} msg/s for ${RATE_SECONDS} s; ${cpus().length} cores`,
		`n8n's idle CPU ${(backgroundPerMs * 1000).toFixed(1)} ms/s (subtracted); load average before ${loadBefore}, after ${loadAverage()}`,
		table(rows),
		'',
	];
	if (port && hand)
		lines.push(
			`Own Port Trigger → Scenario against the hand-built flow: p50 idle ${ratio(p50(port.idle), p50(hand.idle))}, at ${RATE} msg/s ${ratio(p50(port.steady), p50(hand.steady))} (target ≤ 2x); CPU/message idle ${ratio(port.idle.cpuMs, hand.idle.cpuMs)}, at ${RATE} msg/s ${ratio(port.steady.cpuMs, hand.steady.cpuMs)} (target ≤ 2x)`,
		);
	if (trigger && hand)
		lines.push(
			`Messaging Bot Trigger → Scenario: p50 idle ${ms(p50(trigger.idle))} (target < 150 ms); CPU/message against the hand-built flow idle ${ratio(trigger.idle.cpuMs, hand.idle.cpuMs)}, at ${RATE} msg/s ${ratio(trigger.steady.cpuMs, hand.steady.cpuMs)} (target < 1.5x)`,
		);
	process.stdout.write(`${lines.join('\n')}\n`);
}

void main().catch((error: Error) => {
	process.stderr.write(`${error.stack ?? error.message}\n`);
	process.exit(1);
});
