/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { setTimeout as sleep } from 'node:timers/promises';

import { MessagingBotClient, type Priority } from '../runtime/api';
import { createUndiciTransport } from '../runtime/api/undici-transport';
import type { RunningEmulator } from '../test/emulator';

/** The machine's Redis the benches use (MESSAGING_BOT_TEST_REDIS, as the tests). */
export const REDIS_URL = process.env.MESSAGING_BOT_TEST_REDIS ?? 'redis://127.0.0.1:6379/0';

export const clock = {
	now: () => Date.now(),
	sleep: (ms: number, signal?: AbortSignal) => sleep(ms, undefined, { signal }),
};

/** A client on a fresh API key, so one measurement never inherits another's window. */
export async function benchClient(
	e: RunningEmulator,
	limit: number,
	windowMs: number,
	/** Another client on the same key (`apiKeyOf`), e.g. a bot's replies beside a job. */
	options: { apiKeyOf?: { apiKey: string }; priority?: Priority } = {},
): Promise<MessagingBotClient & { close(): Promise<void>; apiKey: string }> {
	const apiKey =
		options.apiKeyOf?.apiKey ?? ((await admin(e, 'POST', '/keys')) as { api_key: string }).api_key;
	const transport = createUndiciTransport({ apiKey, connections: 32 });
	const client = new MessagingBotClient({
		baseUrl: e.baseUrl,
		transport,
		clock,
		apiKey,
		rateLimit: { limit, windowMs },
		priority: options.priority,
	});
	return Object.assign(client, { close: () => transport.close(), apiKey });
}

export async function admin(
	e: RunningEmulator,
	method: string,
	path: string,
	body?: unknown,
): Promise<unknown> {
	const res = await fetch(`${e.adminUrl}${path}`, {
		method,
		headers: body ? { 'Content-Type': 'application/json' } : {},
		body: body ? JSON.stringify(body) : undefined,
	});
	return ((await res.json()) as { data: unknown }).data;
}

export function percentile(sorted: number[], p: number): number {
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export function table(rows: Array<Record<string, string | number>>): string {
	const keys = Object.keys(rows[0]);
	const width = keys.map((k) => Math.max(k.length, ...rows.map((r) => String(r[k]).length)));
	const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(width[i])).join(' | ')} |`;
	return [
		line(keys),
		line(width.map((w) => '-'.repeat(w))),
		...rows.map((r) => line(keys.map((k) => String(r[k])))),
	].join('\n');
}

/**
 * `events` handled `concurrency` at a time, in order (each client's messages in turn): each one's
 * latency (ms) pushed to `latencies`.
 */
export async function handleConcurrently<E>(
	handle: (event: E) => Promise<unknown>,
	events: readonly E[],
	concurrency: number,
	latencies: number[],
): Promise<void> {
	let next = 0;
	await Promise.all(
		Array.from({ length: concurrency }, async () => {
			while (next < events.length) {
				const e = events[next++];
				const t = performance.now();
				await handle(e);
				latencies.push(performance.now() - t);
			}
		}),
	);
}
