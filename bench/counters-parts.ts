/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { MessageReceived } from '../runtime/scenarios';
import { COUNTERS_NAMESPACE, increments } from '../runtime/scenarios/analytics/counter-keys';
import { takeNotes } from '../runtime/scenarios/analytics/step-notes';
import { stepTally } from '../runtime/scenarios/analytics/tally';
import type { ConversationRecord } from '../runtime/scenarios/durability/record';
import { MemoryStore } from '../runtime/stores/memory';
import { SqliteStore } from '../runtime/stores/sqlite';
import type { StateStore } from '../runtime/stores/types';
import { copyRecord as copy, replaceCount, type Count } from './counters-overhead';
import { CHUNKS, COUNTER_MESSAGES as TIMED, side } from './counters-side';
import { table } from './lib';
import { messages } from './order-traffic';
import { interleaved, overheadRow, type ChunkedSide } from './overhead-verdict';

/**
 * Where the analytics counters' cost lies (`npm run bench:counters-parts`; counters-overhead.ts
 * measures the whole). Each row sets two engines side by side, as the counters bench does (chunks
 * in turns, the verdict by CPU), and changes one part of the counting on one side: the store's
 * share, the record's fields alone, the bookkeeping any count pays (the fields and a typical
 * step's two hashes, stored, nothing decided), the writes that record an outcome only, and what a
 * second count of the same step adds to the first. The parts replace the engine's count (its ConversationStore's
 * `countersOf`, a private method) on that engine only. BENCH_PARTS_STORE=sqlite: every side on a
 * SQLite file of its own (MemoryStore without); BENCH_PARTS picks rows by their ids (main's ROWS).
 */
const ROUNDS = Number(process.env.BENCH_COUNTER_ROUNDS ?? 6);
const UNTIMED = 3_000;
const SQLITE = process.env.BENCH_PARTS_STORE === 'sqlite';
// Rows run one after another in a process move each other (one by 3 to 4 points, docs/benchmarks.md):
// BENCH_PARTS=whole,bookkeeping runs only those rows (one a process reads each as if alone).
const picked = process.env.BENCH_PARTS?.split(',');
const out = (line = '') => process.stdout.write(`${line}\n`);

/** A side's counting: none, the engine's own, or a replacement built from the engine's own. */
type Part = 'off' | 'on' | ((own: Count) => Count);

/**
 * The engine's count made (the record marked as it leaves it), its counts not given to the store:
 * the store's share of the cost. In the engine's place, not around the store: a wrapper of the
 * store's write would add a call and a copy of the options to every write on that side only.
 */
const unstored =
	(own: Count): Count =>
	(before, after, now) => {
		own(before, after, now);
		return undefined;
	};

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

// A moving step's fields, named as the example's loop names them (ask_number > lookup > status).
const STEP_FIELDS = [
	'messages',
	'wait:ask_number:7',
	'edge:ask_number>lookup',
	'entered:lookup',
	'edge:lookup>status',
	'entered:status',
	'stopLive:ask_number:1',
	'stopLive:status:2',
];

/** The fields, and every write's two hashes of a moving step's fields, stored: no decision made. */
const bookkeeping = (): Count => {
	const fields = fieldsOnly();
	return (before, after, now) => {
		fields(before, after, now);
		const day = new Map<string, number>();
		for (const name of STEP_FIELDS) day.set(name, (day.get(name) ?? 0) + 1);
		const live = new Map([['ask_number', -1]]);
		live.set('status', 1);
		const [key, expiresAt] = ['default|order-status@2|', now + 86_400_000];
		const hashes = [{ key: `${key}2026-01-01`, incr: day, expiresAt }];
		hashes.push({ key: `${key}now`, incr: live, expiresAt });
		return { namespace: COUNTERS_NAMESPACE, hashes };
	};
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
	store: StateStore,
	events: MessageReceived[],
): Promise<ChunkedSide> {
	return await side(store, events, UNTIMED, part !== 'off', (engine) => {
		if (typeof part === 'function') replaceCount(engine, part);
	});
}

async function main(dir: string): Promise<void> {
	let n = 0;
	const fresh = (): StateStore =>
		SQLITE ? new SqliteStore(path.join(dir, `side${++n}.sqlite`)) : new MemoryStore();
	const events = messages(UNTIMED + TIMED, 'm');
	const rows: Array<Record<string, string>> = [];
	const ROWS: Record<string, { what: string; sides: [Part, Part] }> = {
		whole: { what: 'A: off, B: on (the whole cost)', sides: ['off', 'on'] },
		unstored: {
			what: 'A: off, B: on, its counts made but not given to the store',
			sides: ['off', unstored],
		},
		fields: { what: "A: off, B: the record's fields alone, no count", sides: ['off', fieldsOnly] },
		bookkeeping: {
			what: "A: off, B: the fields and a moving step's two hashes, stored, nothing decided",
			sides: ['off', bookkeeping],
		},
		steps: {
			what: 'A: on, B: on but the writes of an outcome only (a reply sent) uncounted',
			sides: ['on', stepsOnly],
		},
		second: {
			what: 'A: on with copies made, B: the same and a second count on them',
			sides: [withCopies(false), withCopies(true)],
		},
	};
	const compare = async (what: string, sides: [Part, Part]) => {
		const [a, b] = await interleaved(ROUNDS, CHUNKS, async (i) => open(sides[i], fresh(), events));
		rows.push({ part: what, ...overheadRow({ off: 'A', on: 'B', short: 'B' }, a, b, 0.1) });
	};
	for (const [id, { what, sides }] of Object.entries(ROWS))
		if (!picked || picked.includes(id)) await compare(what, sides);
	const store = SQLITE ? 'SQLite, a file a side' : 'MemoryStore';
	out(
		`Where the counters' cost lies (${store}, ${TIMED.toLocaleString('en')} messages a side after ${UNTIMED.toLocaleString('en')} untimed, ${ROUNDS} rounds of chunks in turns; the verdict is B's CPU against A's, as in the counters bench):`,
	);
	out(table(rows.map(({ part, ...row }) => ({ part, ...pick(row) }))));
}

/** The columns that tell the parts apart. */
function pick(row: Record<string, string>): Record<string, string> {
	const keys = Object.keys(row);
	return Object.fromEntries(keys.slice(0, 3).map((k) => [k, row[k]]));
}

const dir = mkdtempSync(path.join(tmpdir(), 'mb-counter-parts-'));
main(dir)
	.catch((error: unknown) => {
		process.stderr.write(`${String(error)}\n`);
		process.exitCode = 1;
	})
	.finally(() => rmSync(dir, { recursive: true, force: true }));
