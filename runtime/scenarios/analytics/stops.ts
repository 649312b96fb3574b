import { field, sameVersion, type ScenarioRef } from './counter-keys';

/**
 * Where a conversation stopped, kept exact by counters: each conversation holds one "stop"
 * counter, in the hash of the day it first reached its current state, and moves it as it goes:
 * `stopEnd:S` (it ended in S), `stopHuman:S` (handed to a person in S), or `stopLive:S:m` (the
 * bot has it in S, its last message in minute m). The reading tells a live stop "dropped" or
 * "still in progress" by its minute against the quiet time; those that went on hold none in S.
 */
export interface Stop {
	day: string;
	field: string;
	/** A live stop's minute: in `field` now; kept apart by records of an earlier release. */
	minute?: number;
}

const MINUTE_MS = 60_000;

/** What a stop reads of a record (tally.ts's TalliedRecord, which imports this file). */
interface StoppedRecord {
	scenario: ScenarioRef;
	snapshot: { value: string; context: { handedOff: boolean } };
	ended: boolean;
	reached?: Readonly<Record<string, string>>;
	stop?: Stop;
}

/** Where a stop is counted (tally.ts's Tally). */
interface StopTally {
	add(scenario: ScenarioRef, name: string, n: number, day?: string): void;
}

export function countStop(
	tally: StopTally,
	before: StoppedRecord | undefined,
	after: StoppedRecord,
	step: { started: boolean; moved: boolean; event: string | undefined; now: number },
): void {
	const old = before?.stop;
	const state = after.snapshot.value;
	const day = after.reached?.[state];
	// The stop's field and minute first: a stop that did not move keeps its object (no new one a write).
	let name: string | undefined;
	let minute: number | undefined;
	if (day !== undefined) {
		if (after.ended) name = field.stop('End', state);
		else if (after.snapshot.context.handedOff) name = field.stop('Human', state);
		else {
			// The quiet time runs from the client's last message, or from arriving in the state.
			const fresh =
				step.moved || step.event === 'message' || step.event === 'late' || step.event === 'release';
			const kept = fresh ? undefined : liveMinute(old);
			minute = kept ?? Math.floor(step.now / MINUTE_MS);
			name = field.stopLive(state, minute);
		}
	}
	const from: ScenarioRef | undefined = before?.scenario;
	if (
		old &&
		name !== undefined &&
		from &&
		sameVersion(from, after.scenario) &&
		old.day === day &&
		old.field === name
	) {
		after.stop = old;
		return;
	}
	// A conversation that ended keeps its stop when it starts again: that run completed.
	if (old && from && !(before?.ended && step.started)) tally.add(from, old.field, -1, old.day);
	if (name === undefined || day === undefined) after.stop = undefined;
	else {
		after.stop = { day, field: name };
		tally.add(after.scenario, name, 1, day);
	}
}

/** A live stop's minute, from its field (`stopLive:S:m`); undefined for an end or a hand-off. */
function liveMinute(stop: Stop | undefined): number | undefined {
	if (!stop) return undefined;
	if (stop.minute !== undefined) return stop.minute;
	if (!stop.field.startsWith('stopLive:')) return undefined;
	return Number(stop.field.slice(stop.field.lastIndexOf(':') + 1));
}
