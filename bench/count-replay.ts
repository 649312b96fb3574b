/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { increments } from '../runtime/scenarios/analytics/counter-keys';
import { stepFacts, stepPath } from '../runtime/scenarios/analytics/step-notes';
import { stepTally } from '../runtime/scenarios/analytics/tally';
import type { ConversationRecord } from '../runtime/scenarios/durability/record';
import { MemoryStore } from '../runtime/stores/memory';
import { copyRecord as copy, replaceCount, type Rec } from './counters-overhead';
import { side } from './counters-side';
import { table } from './lib';
import { messages } from './order-traffic';

/**
 * The count alone, replayed (`npx tsx bench/count-replay.ts`): the writes of the counters bench's
 * traffic recorded as the engine makes them (the records before and after, copied), then the
 * engine's count (`stepTally` and `increments`) timed over them, each call on its own, with
 * nothing, 512 KB or 2 MB of other data read between calls. What the count costs when the memory
 * it reads was just read, and when it must be fetched again, as in the engine.
 */
const TIMED = 8_000;
const ROUNDS = 15;
const EVICT_KB = [0, 512, 2048];
const out = (line = '') => process.stdout.write(`${line}\n`);

type Write = { before: Rec; after: ConversationRecord; now: number };

/** Whether a write saves a step (noted, or moved) rather than an effect's outcome only. */
const isStep = ({ before, after }: Write) =>
	!!stepFacts(after) || !!stepPath(after) || !before || before.snapshot !== after.snapshot;

async function record(): Promise<Write[]> {
	const writes: Write[] = [];
	let recording = false;
	const events = messages(3_000 + TIMED, 'm');
	const chunks = await side(new MemoryStore(), events, 3_000, true, (engine) =>
		replaceCount(engine, (own) => (before, after, now) => {
			if (recording)
				writes.push({ before: copy(before), after: copy(after) as ConversationRecord, now });
			return own(before, after, now);
		}),
	);
	recording = true;
	for (let k = 0; k < 32; k++) await chunks.run(k);
	await chunks.close();
	return writes;
}

/** µs a call, the median over rounds, with `evictKb` of other data read between calls. */
function replay(writes: Write[], evictKb: number): number {
	const other = new Float64Array((evictKb * 1024) / 8);
	const perCall: number[] = [];
	for (let round = 0; round < ROUNDS; round++) {
		// Fresh copies each round: a count marks the record it reads.
		const fresh = writes.map((w) => ({ ...w, after: copy(w.after) as ConversationRecord }));
		let ns = 0n;
		for (const { before, after, now } of fresh) {
			const started = process.hrtime.bigint();
			increments('default', stepTally(before, after, now), now, 90);
			ns += process.hrtime.bigint() - started;
			for (let i = 0; i < other.length; i += 8) other[i] += 1;
		}
		perCall.push(Number(ns) / 1000 / fresh.length);
	}
	return perCall.sort((a, b) => a - b)[ROUNDS >> 1];
}

async function main(): Promise<void> {
	const writes = await record();
	const steps = writes.filter(isStep);
	const outcomes = writes.filter((w) => !isStep(w));
	const rows = EVICT_KB.map((kb) => ({
		'read between calls': kb === 0 ? 'nothing' : `${kb} KB`,
		'a step, µs': replay(steps, kb).toFixed(2),
		'an outcome only, µs': replay(outcomes, kb).toFixed(2),
	}));
	out(
		`The count replayed: ${writes.length.toLocaleString('en')} writes of ${TIMED.toLocaleString('en')} messages (${steps.length.toLocaleString('en')} steps, ${outcomes.length.toLocaleString('en')} outcome-only), stepTally with increments timed a call at a time, the median of ${ROUNDS} rounds:`,
	);
	out(table(rows));
}

main().catch((error: unknown) => {
	process.stderr.write(`${String(error)}\n`);
	process.exitCode = 1;
});
