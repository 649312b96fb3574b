import { today, waitBucket, type VersionCounts } from './counter-keys';
import { withReached } from './reached';
import { namesOf } from './state-names';
import type { PathLeg, StepFacts } from './step-notes';
import { countStop } from './stops';
import type { TalliedRecord } from './tallied';

/**
 * Most steps are one kind: a client's message to a live conversation, which moves it along one
 * scenario version or keeps it where it is, hands nothing off, ends nothing and marks no split.
 * This counts that kind alone, straight into one version's hashes and with each state's names
 * looked up once (state-names.ts); it counts exactly what tally.ts's general count would (a test
 * holds the two equal), in a third less time a step (bench/count-replay.ts).
 */

/** A step's counts in its version's hashes, the "in each state now" one writable. */
type Counts = VersionCounts & { live: Map<string, number> };

/** The states a lean step entered ([] if it stayed), or undefined if the step is not one. */
function leanPath(
	before: TalliedRecord | undefined,
	after: TalliedRecord,
	facts: StepFacts | undefined,
	path: readonly PathLeg[] | undefined,
): { states: readonly string[]; keyword: boolean } | undefined {
	if (!before || facts?.event !== 'message' || facts.started || facts.late) return;
	const notes = facts.notes ?? [];
	const keyword = notes.length === 1 && notes[0] === 'keyword';
	if (notes.length > (keyword ? 1 : 0) || before.ended || after.ended) return;
	if (before.snapshot.context.handedOff || after.snapshot.context.handedOff) return;
	if (after.snapshot.context.splits || typeof before.reached !== 'string') return;
	const { id, version } = after.scenario;
	if (before.scenario.id !== id || before.scenario.version !== version) return;
	if (!path || path.length === 0)
		return before.snapshot.value === after.snapshot.value ? { states: [], keyword } : undefined;
	const leg = path[0];
	if (path.length > 1 || leg.scenario.id !== id || leg.scenario.version !== version) return;
	if (leg.states.length === 0 && before.snapshot.value !== after.snapshot.value) return;
	return { states: leg.states, keyword };
}

function add(hash: Map<string, number>, name: string, n: number): void {
	hash.set(name, (hash.get(name) ?? 0) + n);
}

/** The counts of a lean step, its marks written on `after`; undefined if it is not one. */
export function leanStep(
	before: TalliedRecord | undefined,
	after: TalliedRecord,
	facts: StepFacts | undefined,
	path: readonly PathLeg[] | undefined,
	now: number,
): VersionCounts | undefined {
	const lean = leanPath(before, after, facts, path);
	if (!lean || !before) return;
	const counts: Counts = { scenario: after.scenario, day: new Map(), live: new Map() };
	counts.day.set('messages', 1);
	const moved = lean.states.length > 0;
	after.reached = walkLean(counts, before, lean.states, lean.keyword, now);
	if (moved) {
		counts.live.set(before.snapshot.value, -1);
		add(counts.live, after.snapshot.value, 1);
		after.enteredAt = now;
	} else if (before.enteredAt !== undefined) after.enteredAt = before.enteredAt;
	const day = today(now);
	const stops = {
		add(_scenario: unknown, name: string, n: number, at?: string): void {
			if (at === undefined || at === day) return add(counts.day, name, n);
			counts.past ??= new Map();
			const hash = counts.past.get(at) ?? new Map<string, number>();
			counts.past.set(at, hash);
			add(hash, name, n);
		},
	};
	countStop(stops, before, after, { started: false, moved, event: 'message', now });
	return counts;
}

/** Counts the states entered (the wait before, each arrow, visit and first reach): its reached. */
function walkLean(
	counts: Counts,
	before: TalliedRecord,
	states: readonly string[],
	keyword: boolean,
	now: number,
): string {
	let reached = before.reached as string;
	if (states.length === 0) return reached;
	const names = namesOf(counts.scenario);
	const prev = before.snapshot.value;
	let at = names.of(prev);
	if (before.enteredAt !== undefined)
		add(counts.day, at.wait(waitBucket(now - before.enteredAt)), 1);
	for (let i = 0; i < states.length; i++) {
		const next = names.of(states[i]);
		add(counts.day, at.edge(next.state, keyword && i === 0), 1);
		add(counts.day, next.entered, 1);
		if (!reached.includes(next.token)) {
			reached = withReached(reached, next.state, today(now));
			add(counts.day, next.reached, 1);
		}
		at = next;
	}
	return reached;
}
