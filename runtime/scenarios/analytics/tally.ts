import type { PersistedSnapshot } from '../machine/compile';
import type { CallResult, Effect, StepNote } from '../machine/setup';
import { field, waitBucket, type ScenarioRef, type VersionCounts } from './counter-keys';

/**
 * What one step counts, from the record before and after it and what the stepper noted about it:
 * the analytics counters (counter-keys.ts) written in the same compare-and-set as the record, so a
 * step lost to another writer counts nothing and a step saved counts once.
 */

/** What a count reads of an effect in the record's outbox (durability/record.ts's `OutboxEntry`). */
interface TalliedEffect {
	effect: Pick<Effect, 'kind'>;
	status: 'pending' | 'sending' | 'done' | 'unknown' | 'failed';
	result?: Pick<CallResult, 'outcome'>;
	/** Its outcome is in the counters. */
	counted?: boolean;
}

/**
 * What a count reads of a stored conversation (durability/record.ts's `TalliedRecord`, which
 * the layer below this one cannot name): where it is, whether it ended, its outbox.
 */
export interface TalliedRecord {
	scenario: ScenarioRef;
	snapshot: PersistedSnapshot;
	ended: boolean;
	outbox: TalliedEffect[];
	/** When it entered its current state, written by the count. */
	enteredAt?: number;
}

/** What the stepper knows of a step that the records before and after do not show. */
export interface StepFacts {
	event: 'message' | 'timer' | 'release' | 'result' | 'late';
	/** A conversation (re)started: new, ended before, or its state gone from its scenario. */
	started?: boolean;
	/** A message older than one already applied, applied all the same (the "apply" late policy). */
	late?: boolean;
	notes?: readonly StepNote[];
}

// Facts travel with the record the stepper built, never stored: only the write that saves it reads them.
const factsOf = new WeakMap<TalliedRecord, StepFacts>();

export function noteStep<R extends TalliedRecord>(record: R, facts: StepFacts): R {
	factsOf.set(record, facts);
	return record;
}

export function stepFacts(record: TalliedRecord): StepFacts | undefined {
	return factsOf.get(record);
}

const NOTE_COUNTERS: Record<StepNote, string> = {
	fallback: 'fallback',
	retry: 'retry',
	giveUp: 'giveup',
};

/** A step's counts per scenario version (usually one), built without a closure or a search. */
class Tally {
	readonly counts: VersionCounts[] = [];

	private of(scenario: ScenarioRef): VersionCounts {
		const counts = this.counts;
		for (let i = 0; i < counts.length; i++) {
			const c = counts[i].scenario;
			if (c === scenario || (c.id === scenario.id && c.version === scenario.version))
				return counts[i];
		}
		const found = { scenario, day: {}, live: {} };
		counts.push(found);
		return found;
	}

	add(scenario: ScenarioRef, name: string, n = 1): void {
		const day = this.of(scenario).day;
		day[name] = (day[name] ?? 0) + n;
	}

	/** The conversations in a state now. */
	live(scenario: ScenarioRef, state: string, n: number): void {
		const live = this.of(scenario).live;
		live[state] = (live[state] ?? 0) + n;
	}
}

/**
 * The counts of writing `after` over `before`. Marks in `after` what it counted (its outcomes,
 * the time it entered its state), so the next write does not count them again.
 */
export function stepTally(
	before: TalliedRecord | undefined,
	after: TalliedRecord,
	now: number,
): VersionCounts[] {
	const tally = new Tally();
	// Read once: a later write of the same record (its outbox drained) is not the step again.
	const facts = factsOf.get(after);
	if (facts) factsOf.delete(after);
	const from = before?.scenario;
	const prev = before?.snapshot.value;
	const next = after.snapshot.value;
	const started = !before || (facts?.started ?? false);
	const moved =
		started ||
		prev !== next ||
		from?.id !== after.scenario.id ||
		from.version !== after.scenario.version;
	const wasLive = !!before && !before.ended;
	countEvents(tally, before, after, facts, started);
	if (before && from && prev !== undefined && wasLive && moved) {
		// A transition counts its edge; leaving otherwise (a restart, a new version) counts as left.
		if (!started && prev !== next) tally.add(from, field.edge(prev, next));
		else tally.add(from, field.of('left', prev));
		if (before.enteredAt !== undefined)
			tally.add(from, field.wait(prev, waitBucket(now - before.enteredAt)));
	}
	if (moved) {
		tally.add(after.scenario, field.of('entered', next));
		after.enteredAt = now;
	} else if (before?.enteredAt !== undefined) after.enteredAt = before.enteredAt;
	// The conversations in each state now: live ones, counted where they are.
	if (from && prev !== undefined && wasLive && (moved || after.ended)) tally.live(from, prev, -1);
	if (!after.ended && (moved || !wasLive)) tally.live(after.scenario, next, 1);
	for (const entry of after.outbox) countOutcome(tally, after.scenario, entry);
	return tally.counts;
}

function countEvents(
	tally: Tally,
	before: TalliedRecord | undefined,
	after: TalliedRecord,
	facts: StepFacts | undefined,
	started: boolean,
): void {
	const to = after.scenario;
	const where = before?.snapshot.value ?? after.snapshot.value;
	if (started) tally.add(to, 'started');
	if (after.ended && (started || !before?.ended)) tally.add(to, 'ended');
	const handedOff = !!before && !before.ended && before.snapshot.context.handedOff;
	if (!handedOff && after.snapshot.context.handedOff) tally.add(to, 'handoff');
	if (handedOff && !after.snapshot.context.handedOff && !started) tally.add(to, 'release');
	if (!facts) return;
	if (facts.event === 'message') tally.add(to, 'messages');
	if (facts.event === 'late' || facts.late) tally.add(to, 'late');
	if (facts.event === 'timer' && before) tally.add(before.scenario, field.of('timer', where));
	if (facts.notes)
		for (const note of facts.notes) tally.add(to, field.of(NOTE_COUNTERS[note], where));
}

/** An effect's outcome is counted with the write that records it, once. */
function countOutcome(tally: Tally, scenario: ScenarioRef, entry: TalliedEffect): void {
	if (entry.counted || entry.status === 'pending' || entry.status === 'sending') return;
	entry.counted = true;
	const kind = entry.effect.kind;
	if (kind === 'reply')
		tally.add(scenario, entry.status === 'done' ? 'reply:sent' : `reply:${entry.status}`);
	else if (kind === 'workflow')
		tally.add(scenario, `call:${entry.result?.outcome ?? entry.status}`);
	else tally.add(scenario, `tags:${entry.status}`);
}
