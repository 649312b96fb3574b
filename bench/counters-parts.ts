/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import type { MessageReceived } from '../runtime/scenarios';
import { increments } from '../runtime/scenarios/analytics/counter-keys';
import { takeNotes } from '../runtime/scenarios/analytics/step-notes';
import { stepTally } from '../runtime/scenarios/analytics/tally';
import type { ConversationRecord } from '../runtime/scenarios/durability/record';
import { MemoryStore } from '../runtime/stores/memory';
import type { WriteOptions } from '../runtime/stores/types';
import { side } from './counters-overhead';
import { table } from './lib';
import { messages } from './order-traffic';
import { interleaved, overheadRow, type ChunkedSide } from './overhead-verdict';

/**
 * Where the analytics counters' cost lies (`npm run bench:counters-parts`; counters-overhead.ts
 * measures the whole). Each row sets two engines side by side, as the counters bench does
 * (MemoryStore, chunks in turns, the verdict by CPU), and changes one part of the counting on one
 * side: the store's share, the record's fields alone, the writes that record an outcome only, and
 * what a second count of the same step adds to the first. The parts replace the engine's count
 * (its ConversationStore's `countersOf`, a private method) on that engine only.
 */
const ROUNDS = Number(process.env.BENCH_COUNTER_ROUNDS ?? 6);
const CHUNKS = Number(process.env.BENCH_COUNTER_CHUNKS ?? 32);
const UNTIMED = 3_000;
const TIMED = Number(process.env.BENCH_COUNTER_MESSAGES ?? 8_000);
const out = (line = '') => process.stdout.write(`${line}\n`);

type Rec = ConversationRecord | undefined;
type Count = (before: Rec, after: ConversationRecord, now: number) => WriteOptions['counters'];

/** A side's counting: none, the engine's own, or a replacement built from the engine's own. */
type Part = 'off' | 'on' | ((own: Count) => Count);

/** A store that writes the records and drops the counts: the store's share of the cost. */
class UncountingStore extends MemoryStore {
	override async write(...args: Parameters<MemoryStore['write']>): Promise<number | null> {
		const [namespace, key, value, expected, options] = args;
		return await super.write(namespace, key, value, expected, { ...options, counters: undefined });
	}
}

const copy = (r: Rec): Rec => r && { ...r, outbox: r.outbox.map((e) => ({ ...e })) };

/** The record's fields as a count leaves them, with no count: reached, entered, stop, counted. */
const fieldsOnly = (): Count => (before, after, now) => {
	takeNotes(after);
	const moved = !before || before.snapshot.value !== after.snapshot.value;
	after.reached = before?.reached ?? `@2026-01-01|${after.snapshot.value}|`;
	after.enteredAt = moved ? now : before?.enteredAt;
	after.stop = `2026-01-01 stopLive:${after.snapshot.value}:${Math.floor(now / 60_000)}`;
	for (const entry of after.outbox) if (entry.status === 'done') entry.counted = true;
	return undefined;
};

/** The engine's count, after the same count (and its increments) made on copies, or copies only. */
const withCopies =
	(tallyToo: boolean) =>
	(own: Count): Count =>
	(before, after, now) => {
		const [b, a] = [copy(before), copy(after) as ConversationRecord];
		if (tallyToo) increments('default', stepTally(b, a, now), now, 90);
		return own(before, after, now);
	};

/** The engine's count, left out of the writes that only record an effect's outcome. */
const stepsOnly =
	(own: Count): Count =>
	(before, after, now) =>
		before && before.snapshot === after.snapshot ? undefined : own(before, after, now);

async function open(
	part: Part,
	store: MemoryStore,
	events: MessageReceived[],
): Promise<ChunkedSide> {
	return await side(store, events, UNTIMED, part !== 'off', (engine) => {
		if (typeof part !== 'function') return;
		const conversations = (engine as unknown as { conversations: { countersOf: Count } })
			.conversations;
		conversations.countersOf = part(conversations.countersOf.bind(conversations));
	});
}

async function main(): Promise<void> {
	const events = messages(UNTIMED + TIMED, 'm');
	const rows: Array<Record<string, string>> = [];
	const compare = async (what: string, sides: [Part, Part], storeOf = () => new MemoryStore()) => {
		const [a, b] = await interleaved(ROUNDS, CHUNKS, async (i) =>
			open(sides[i], i === 1 ? storeOf() : new MemoryStore(), events),
		);
		rows.push({ part: what, ...overheadRow({ off: 'A', on: 'B', short: 'B' }, a, b, 0.1) });
	};
	await compare('A: off, B: on (the whole cost)', ['off', 'on']);
	await compare(
		'A: off, B: on, its store dropping the counts',
		['off', 'on'],
		() => new UncountingStore(),
	);
	await compare("A: off, B: the record's fields alone, no count", ['off', fieldsOnly]);
	await compare('A: on, B: on but the writes of an outcome only (a reply sent) uncounted', [
		'on',
		stepsOnly,
	]);
	await compare('A: on with copies made, B: the same and a second count on them', [
		withCopies(false),
		withCopies(true),
	]);
	out(
		`Where the counters' cost lies (MemoryStore, ${TIMED.toLocaleString('en')} messages a side after ${UNTIMED.toLocaleString('en')} untimed, ${ROUNDS} rounds of chunks in turns; the verdict is B's CPU against A's, as in the counters bench):`,
	);
	out(table(rows.map(({ part, ...row }) => ({ part, ...pick(row) }))));
}

/** The columns that tell the parts apart. */
function pick(row: Record<string, string>): Record<string, string> {
	const keys = Object.keys(row);
	return Object.fromEntries(keys.slice(0, 3).map((k) => [k, row[k]]));
}

main().catch((error: unknown) => {
	process.stderr.write(`${String(error)}\n`);
	process.exitCode = 1;
});
