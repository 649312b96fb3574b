/* eslint-disable @n8n/community-nodes/no-restricted-imports -- benchmark tooling: runs a real n8n, never loaded by n8n */
import { setTimeout as sleep } from 'node:timers/promises';

import type { RunningN8n } from '../scripts/lib/n8n-process';
import type { RunningEmulator } from '../test/emulator';
import { admin } from './lib';
import { groupCpuMs, isolateThreadsCpuMs } from './process-cpu';

/** One measured phase of the reply bench: what each message took, and n8n's CPU per message. */

export type Setup = { name: string; bot: string; url: string; subscription?: string };
export type Sample = { latency: number; ackMs: number };
/**
 * The CPU n8n used over the phase (ms) and how long it lasted (ms); its idle use is taken off later.
 * `isolatesMs`: the part of it on isolated-vm's threads (n8n's expression isolates), which an idle
 * n8n does not use.
 */
export type Phase = { samples: Sample[]; usedMs: number; isolatesMs: number; elapsedMs: number };
export type Load = { idleMessages: number; rate: number; rateSeconds: number };

/** Waits for the bot's reply to a text; resolves with the reply's time on the service's clock. */
export class Replies {
	private seen = 0;
	/** The latest of each reply: its place among everything sent, and its time. */
	private readonly found = new Map<string, { index: number; at: number }>();
	constructor(private readonly emulator: RunningEmulator) {}

	/** How many messages were sent so far: a reply sent after now has this index or a higher one. */
	get sentCount(): number {
		return this.emulator.core.sent.length;
	}

	/** The first of `texts` the bot sends the client (from the `since`-th message sent on). */
	async reply(
		bot: string,
		client: string,
		texts: string[],
		since = 0,
		timeoutMs = 30_000,
	): Promise<number> {
		const keys = texts.map((text) => `${bot}\n${client}\n${text}`);
		const deadline = Date.now() + timeoutMs;
		while (Date.now() < deadline) {
			const sent = this.emulator.core.sent;
			for (; this.seen < sent.length; this.seen++)
				this.found.set(
					`${sent[this.seen].bot_id}\n${sent[this.seen].client_id}\n${sent[this.seen].text}`,
					{
						index: this.seen,
						at: Date.parse(sent[this.seen].timestamp),
					},
				);
			const hit = keys
				.map((k) => this.found.get(k))
				.find((f) => f !== undefined && f.index >= since);
			if (hit !== undefined) return hit.at;
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

async function phase(n8n: RunningN8n, run: () => Promise<Sample[]>): Promise<Phase> {
	const pgid = n8n.process.pid as number;
	const cpu0 = groupCpuMs(pgid);
	const isolates0 = isolateThreadsCpuMs(pgid);
	const t0 = performance.now();
	const samples = await run();
	await sleep(1000); // the executions' last writes
	return {
		samples,
		usedMs: groupCpuMs(pgid) - cpu0,
		isolatesMs: isolateThreadsCpuMs(pgid) - isolates0,
		elapsedMs: performance.now() - t0,
	};
}

/** n8n's CPU per message over a phase, less what the idle n8n uses in as long. */
export function cpuPerMessage(p: Phase, backgroundPerMs: number): number {
	return (p.usedMs - backgroundPerMs * p.elapsedMs) / p.samples.length;
}

/**
 * Every client's conversation started (its greeting) and the setup's paths through n8n warm,
 * `rounds` messages per client, one at a time, as idle traffic (a burst would be remembered as
 * such for a while). Every setup is warmed before any is measured: n8n's code shared by the setups
 * (webhooks, executions, its database) is then as warm for the first measured as for the last.
 */
export async function warmSetup(
	e: RunningEmulator,
	replies: Replies,
	s: Setup,
	clients: string[],
	rounds: number,
	tag: string,
) {
	await admin(e, 'PATCH', `/subscriptions/${s.subscription}`, { active: true });
	for (let round = 0; round < rounds; round++)
		for (const [i, c] of clients.entries()) {
			const text = `${tag}warm ${round} ${i}`;
			const since = replies.sentCount;
			await write(e, s.bot, c, text);
			// The hand-built flow answers every message; a scenario greets a new conversation. Only a
			// reply sent after the message counts: an older greeting would let the next message go at
			// once, and a burst would be remembered as such for a while.
			await replies.reply(s.bot, c, [`You said ${text}`, 'Hello'], since).catch(() => undefined);
		}
	await admin(e, 'PATCH', `/subscriptions/${s.subscription}`, { active: false });
}

/**
 * One setup idle (one message at a time) then at a steady rate. `tag` starts every text, so a
 * later run in the same emulator never takes an earlier run's reply for its own.
 */
export async function measureSetup(
	e: RunningEmulator,
	n8n: RunningN8n,
	replies: Replies,
	s: Setup,
	clients: string[],
	load: Load,
	tag: string,
) {
	await admin(e, 'PATCH', `/subscriptions/${s.subscription}`, { active: true });
	await sleep(1500);
	const idle = await phase(n8n, async () => {
		const out: Sample[] = [];
		for (let i = 0; i < load.idleMessages; i++) {
			out.push(await exchange(e, replies, s, clients[i % clients.length], `${tag}idle ${i}`));
			await sleep(300);
		}
		return out;
	});
	const total = Math.round(load.rate * load.rateSeconds);
	const steady = await phase(n8n, async () => {
		const start = performance.now();
		return await Promise.all(
			Array.from({ length: total }, async (_, i) => {
				await sleep(Math.max(0, start + (i * 1000) / load.rate - performance.now()));
				return await exchange(e, replies, s, clients[i % clients.length], `${tag}rate ${i}`);
			}),
		);
	});
	await admin(e, 'PATCH', `/subscriptions/${s.subscription}`, { active: false });
	return { idle, steady };
}

/**
 * What n8n uses doing nothing (ms of CPU per ms), over 10 s. n8n goes on starting for some 20 s
 * after it is ready (50 to 100 ms/s of CPU here, against a few ms/s once settled), so this waits
 * first for a quiet 5 s (under SETTLED_MS_PER_S, or a minute at most).
 */
export async function idleCpuPerMs(pgid: number): Promise<number> {
	const deadline = performance.now() + 60_000;
	for (;;) {
		const c0 = groupCpuMs(pgid);
		await sleep(5000);
		if ((groupCpuMs(pgid) - c0) / 5 < SETTLED_MS_PER_S || performance.now() > deadline) break;
	}
	const c0 = groupCpuMs(pgid);
	await sleep(10_000);
	return (groupCpuMs(pgid) - c0) / 10_000;
}
const SETTLED_MS_PER_S = 20;
