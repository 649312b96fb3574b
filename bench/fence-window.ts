/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { closeBudgets } from '../runtime/api/budget';
import { Fence } from '../runtime/scenarios/durability/fence';
import type { ConversationRecord } from '../runtime/scenarios/durability/record';
import { ConversationStore } from '../runtime/scenarios/durability/record-store';
import { MemoryStore, type StateStore } from '../runtime/stores';
import { SqliteStore } from '../runtime/stores/sqlite';
import { startEmulator, type RunningEmulator } from '../test/emulator';
import { benchClient, percentile, table } from './lib';

/**
 * The window fencing leaves: from the fence's last check (the lease read from the store, the own
 * clock) to the request's headers written on the socket (undici's `sendHeaders` diagnostics
 * channel). A worker frozen inside it for longer than the lease, or one whose lease another takes
 * over inside it, still sends: only an idempotency key on send-message would close it, and the
 * spec has none. Replies to the emulator over HTTP, one at a time and 50 in flight, on the memory
 * and the SQLite store. BENCH_FENCE_REQUESTS (default 2,000 per run).
 */

const REQUESTS = Number(process.env.BENCH_FENCE_REQUESTS ?? 2000);
const LEASE_MS = 60_000;
const OWNER = 'bench-worker';

type Timing = { checkStart: number; checkEnd: number; headers?: number };

async function main(): Promise<void> {
	const emulator = await startEmulator({ rateLimit: 1_000_000 });
	const dir = mkdtempSync(path.join(tmpdir(), 'mb-fence-bench-'));
	const rows: Array<Record<string, string | number>> = [];
	try {
		const stores: Array<[string, () => StateStore]> = [
			['memory', () => new MemoryStore()],
			['sqlite', () => new SqliteStore(path.join(dir, `fence-${rows.length}.sqlite`))],
		];
		for (const [name, open] of stores) {
			for (const inFlight of [1, 50]) {
				const store = open();
				rows.push({ store: name, inFlight, ...(await measure(emulator, store, inFlight)) });
				await store.close();
			}
		}
	} finally {
		await closeBudgets();
		await emulator.close();
		rmSync(dir, { recursive: true, force: true });
	}
	process.stdout.write(`Fence window, ${REQUESTS} replies a run (ms)\n${table(rows)}\n`);
}

/** Sends REQUESTS replies, `inFlight` at a time, each behind a fence on its own outbox entry. */
async function measure(emulator: RunningEmulator, store: StateStore, inFlight: number) {
	const conversations = new ConversationStore(store, 'bench', {
		retentionMs: 86_400_000,
		recheckMs: 30_000,
	});
	const written = await conversations.write(
		'bot_shop:cl_ada',
		leasedRecord(inFlight),
		0,
		Date.now(),
	);
	if (!written) throw new Error('the store already held the leased record');
	const client = await benchClient(emulator, 1_000_000, 60_000, { priority: 'interactive' });
	const timings = new Map<number, Timing>();
	const onHeaders = (message: unknown) => {
		const body = String((message as { request: { body?: unknown } }).request.body ?? '');
		const id = /fence-bench (\d+)/.exec(body)?.[1];
		const timing = id === undefined ? undefined : timings.get(Number(id));
		if (timing) timing.headers = performance.now();
	};
	subscribe('undici:client:sendHeaders', onHeaders);
	try {
		let next = 0;
		const lane = async (slot: number) => {
			for (let n = next++; n < REQUESTS; n = next++) {
				const target = { key: 'bot_shop:cl_ada', id: slot, owner: OWNER, leaseMs: LEASE_MS };
				const fence = new Fence(conversations, { now: Date.now }, target, Date.now() + LEASE_MS);
				const timing: Timing = { checkStart: 0, checkEnd: 0 };
				timings.set(n, timing);
				const guard = {
					signal: fence.signal,
					check: async () => {
						timing.checkStart = performance.now();
						await fence.check();
						timing.checkEnd = performance.now();
					},
				};
				await client.sendMessage(
					'bot_shop',
					{ client_id: 'cl_ada', text: `fence-bench ${n}` },
					guard,
				);
			}
		};
		await Promise.all(Array.from({ length: inFlight }, (_, i) => lane(i + 1)));
	} finally {
		unsubscribe('undici:client:sendHeaders', onHeaders);
		await client.close();
	}
	return summary([...timings.values()]);
}

function summary(timings: Timing[]) {
	const seen = timings.filter((t) => t.headers !== undefined);
	if (seen.length < timings.length)
		throw new Error(`${timings.length - seen.length} requests had no headers on the socket`);
	const sorted = (f: (t: Timing) => number) => seen.map(f).sort((a, b) => a - b);
	const check = sorted((t) => t.checkEnd - t.checkStart);
	const window = sorted((t) => (t.headers as number) - t.checkEnd);
	const fromRead = sorted((t) => (t.headers as number) - t.checkStart);
	const ms = (v: number) => v.toFixed(3);
	return {
		'check p50': ms(percentile(check, 50)),
		'check p99': ms(percentile(check, 99)),
		'window p50': ms(percentile(window, 50)),
		'window p99': ms(percentile(window, 99)),
		'window max': ms(window[window.length - 1]),
		'from check start p99': ms(percentile(fromRead, 99)),
	};
}

/** One conversation with `n` replies leased to this worker (the fences read it). */
function leasedRecord(n: number): ConversationRecord {
	const now = Date.now();
	const outbox = Array.from({ length: n }, (_, i) => ({
		id: i + 1,
		cause: `m${i + 1}`,
		effect: { kind: 'reply' as const, text: `fence-bench reply ${i + 1}` },
		status: 'sending' as const,
		attempts: 1,
		lease: { owner: OWNER, until: now + 10 * LEASE_MS, since: now },
	}));
	return {
		format: 1,
		botId: 'bot_shop',
		clientId: 'cl_ada',
		scenario: { id: 'bench', version: 1 },
		snapshot: { value: 'a', context: {} } as unknown as ConversationRecord['snapshot'],
		ended: false,
		handled: [],
		outbox,
		timer: null,
		seq: n,
		updatedAt: now,
	};
}

void main().catch((error: unknown) => {
	process.stderr.write(
		`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exitCode = 1;
});
