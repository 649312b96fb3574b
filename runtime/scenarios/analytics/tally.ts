import type { StepNote } from '../machine/setup';
import {
	field,
	sameVersion,
	today,
	waitBucket,
	type ScenarioRef,
	type VersionCounts,
} from './counter-keys';
import { reachedDay, reachedNow, withReached, type Reached } from './reached';
import { takeNotes, type PathLeg, type StepFacts } from './step-notes';
import { leanStep } from './lean-step';
import { countStop } from './stops';
import { outcomeOf, type TalliedEffect, type TalliedRecord } from './tallied';

/**
 * What one step counts, from the record before and after it and what the stepper noted about it:
 * the analytics counters (counter-keys.ts) written in the same compare-and-set as the record, so a
 * step lost to another writer counts nothing and a step saved counts once.
 */

const NOTE_COUNTERS: Record<StepNote, string | undefined> = {
	fallback: 'fallback',
	retry: 'retry',
	giveUp: 'giveup',
	// Counted as its edge (field.keyword).
	keyword: undefined,
};

/** One version's counts as a tally makes them, "in each state now" included. */
type Counting = VersionCounts & { live: Map<string, number> };

/** A step's counts per scenario version (usually one), built without a closure or a search. */
class Tally {
	readonly counts: Counting[] = [];

	constructor(readonly today: string) {}

	private of(scenario: ScenarioRef): Counting {
		const counts = this.counts;
		for (let i = 0; i < counts.length; i++) {
			if (sameVersion(counts[i].scenario, scenario)) return counts[i];
		}
		const found: Counting = { scenario, day: new Map(), live: new Map() };
		counts.push(found);
		return found;
	}

	/** Adds to today's hash, or to the hash of an earlier `day`. */
	add(scenario: ScenarioRef, name: string, n = 1, day?: string): void {
		const counts = this.of(scenario);
		let hash = counts.day;
		if (day !== undefined && day !== this.today) {
			counts.past ??= new Map();
			hash = counts.past.get(day) ?? new Map();
			counts.past.set(day, hash);
		}
		hash.set(name, (hash.get(name) ?? 0) + n);
	}

	/** The conversations in a state now. */
	live(scenario: ScenarioRef, state: string, n: number): void {
		const live = this.of(scenario).live;
		live.set(state, (live.get(state) ?? 0) + n);
	}
}

/**
 * The counts of writing `after` over `before`: every state the step entered (a visit; "reached"
 * the first time in the conversation), every edge it took, where the conversation stopped. Marks
 * in `after` what it counted (its outcomes, its states reached, its stop, the time it entered its
 * state), so the next write does not count them again.
 */
export function stepTally(
	before: TalliedRecord | undefined,
	after: TalliedRecord,
	now: number,
): VersionCounts[] {
	// Read once: a later write of the same record (its outbox drained) is not the step again.
	const noted = takeNotes(after);
	const facts = noted.facts;
	if (!facts && !noted.path && before && outcomesOnly(before, after)) {
		// Most writes only record an effect's outcome (a reply sent): the conversation stands still.
		after.reached = before.reached;
		after.enteredAt = before.enteredAt;
		after.stop = before.stop;
		return outcomes(after, undefined);
	}
	const lean = leanStep(before, after, facts, noted.path, now);
	return lean ? outcomes(after, lean) : fullTally(before, after, noted, now);
}

/**
 * Any step's counts, however it moved (a start, an end, a hand-off, a jump to another version, a
 * split's marks): the reference the lean step (lean-step.ts) counts its kind of step alike to.
 */
export function fullTally(
	before: TalliedRecord | undefined,
	after: TalliedRecord,
	noted: { facts?: StepFacts; path?: readonly PathLeg[] },
	now: number,
): VersionCounts[] {
	const facts = noted.facts;
	const tally = new Tally(today(now));
	const from = before?.scenario;
	const prev = before?.snapshot.value;
	const next = after.snapshot.value;
	const started = !before || (facts?.started ?? false);
	const changed = !!from && !sameVersion(from, after.scenario);
	let path = noted.path ?? [];
	// No path known (or none in a new version): the conversation counts as arriving where it is.
	if (!path.some((leg) => leg.states.length > 0) && (started || changed || prev !== next))
		path = [{ scenario: after.scenario, states: [next] }];
	const moved = path.some((leg) => leg.states.length > 0);
	const wasLive = !!before && !before.ended;
	countEvents(tally, before, after, facts, started);
	const leaving =
		wasLive && from && prev !== undefined && moved ? { scenario: from, state: prev } : undefined;
	if (leaving && before?.enteredAt !== undefined)
		tally.add(leaving.scenario, field.wait(leaving.state, waitBucket(now - before.enteredAt)));
	// A restart leaves the old state by no edge.
	if (leaving && started) tally.add(leaving.scenario, field.of('left', leaving.state));
	const keyword = facts?.notes?.includes('keyword') ?? false;
	const run = walk(tally, path, started ? undefined : leaving, keyword, {
		scenario: started ? undefined : from,
		reached: reachedNow(before?.reached),
	});
	after.reached = sameVersion(run.scenario, after.scenario) ? run.reached : '';
	if (moved) after.enteredAt = now;
	else if (before?.enteredAt !== undefined) after.enteredAt = before.enteredAt;
	// The conversations in each state now: live ones, counted where they are.
	if (from && prev !== undefined && wasLive && (moved || after.ended)) tally.live(from, prev, -1);
	if (!after.ended && (moved || !wasLive)) tally.live(after.scenario, next, 1);
	countStop(tally, before, after, { started, moved, event: facts?.event, now });
	countSplits(tally, before, after);
	for (const entry of after.outbox) countOutcome(tally, after.scenario, entry);
	return tally.counts;
}

/**
 * A write that moves nothing: no step noted, the same snapshot object (state, context, hand-off,
 * variants), the same version and end, and the conversation's stop already counted. Then only
 * the outbox's outcomes are news; the rest of stepTally would count nothing and keep the marks.
 */
function outcomesOnly(before: TalliedRecord, after: TalliedRecord): boolean {
	return (
		before.snapshot === after.snapshot &&
		before.ended === after.ended &&
		sameVersion(before.scenario, after.scenario) &&
		before.stop !== undefined
	);
}

interface Run {
	scenario: ScenarioRef | undefined;
	reached: Reached;
}

/** Counts a step's path: a visit per state entered, "reached" once per run, the edges between. */
function walk(
	tally: Tally,
	path: readonly PathLeg[],
	from: { scenario: ScenarioRef; state: string } | undefined,
	keyword: boolean,
	run: Run,
): Run {
	// Where the walk is (no object a state): the step's start, then each state entered.
	let atScenario = from?.scenario;
	let atState = from?.state ?? '';
	let first = true;
	let { scenario, reached } = run;
	for (const leg of path) {
		// Another scenario version (a jump, a new version): a new run there.
		if (!sameVersion(scenario, leg.scenario)) {
			scenario = leg.scenario;
			reached = '';
		}
		for (const state of leg.states) {
			if (atScenario && sameVersion(atScenario, leg.scenario)) {
				const edge = keyword && first ? field.keyword : field.edge;
				tally.add(leg.scenario, edge(atState, state));
			} else if (atScenario) tally.add(atScenario, field.of('left', atState));
			tally.add(leg.scenario, field.of('entered', state));
			if (reachedDay(reached, state) === undefined) {
				reached = withReached(reached, state, tally.today);
				tally.add(leg.scenario, field.of('reached', state));
			}
			atScenario = leg.scenario;
			atState = state;
			first = false;
		}
	}
	return { scenario, reached };
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
		for (const note of facts.notes) {
			const counter = NOTE_COUNTERS[note];
			if (counter) tally.add(to, field.of(counter, where));
		}
}

/**
 * A client's split variants and goals, counted when they first appear on its record: the variants
 * are carried from one conversation to the next (machine/split.ts), so each client counts once.
 */
function countSplits(tally: Tally, before: TalliedRecord | undefined, after: TalliedRecord): void {
	const marks = after.snapshot.context.splits;
	if (!marks) return;
	const was = before?.snapshot.context.splits;
	for (const test in marks) {
		const { variant, goal } = marks[test];
		const old = was?.[test];
		const same = old?.variant === variant;
		if (!same) tally.add(after.scenario, field.variant(test, variant));
		if (goal && !(same && old?.goal)) tally.add(after.scenario, field.variantGoal(test, variant));
	}
}

// An outcome moves no conversation: nothing in the "in each state now" hash.
const NONE: ReadonlyMap<string, number> = new Map();

/** The outcomes of `after`'s outbox added to `counts` (made if none and there are outcomes). */
function outcomes(after: TalliedRecord, counts: VersionCounts | undefined): VersionCounts[] {
	for (const entry of after.outbox) {
		const name = outcomeOf(entry);
		if (name === undefined) continue;
		counts ??= { scenario: after.scenario, day: new Map(), live: NONE };
		counts.day.set(name, (counts.day.get(name) ?? 0) + 1);
	}
	return counts ? [counts] : [];
}

/** An effect's outcome is counted with the write that records it, once. */
function countOutcome(tally: Tally, scenario: ScenarioRef, entry: TalliedEffect): void {
	const name = outcomeOf(entry);
	if (name !== undefined) tally.add(scenario, name);
}
