/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { MemoryStore } from '../runtime/stores/memory';
import { benchEngine } from './counters-side';
import { handleConcurrently } from './lib';
import { messages } from './order-traffic';

/**
 * One side of `bench/count-instructions.ts`, run under valgrind: the counters bench's traffic
 * (order-status, 1,000 clients, 50 in flight, MemoryStore) through one engine, counters on or off
 * (MB_INSTR_COUNTERS=1 or 0): MB_INSTR_WARM messages, then MB_INSTR_MESSAGES more. Two runs of a
 * side that differ only in the second number give the instructions of those messages alone.
 */
async function main(): Promise<void> {
	const counting = process.env.MB_INSTR_COUNTERS === '1';
	const warm = Number(process.env.MB_INSTR_WARM ?? 10_000);
	const timed = Number(process.env.MB_INSTR_MESSAGES ?? 2_000);
	const store = new MemoryStore();
	const engine = benchEngine(store, counting);
	const events = messages(warm + timed, 'i');
	await handleConcurrently(async (e) => await engine.handle(e), events, 50, []);
	await store.close();
}

void main();
