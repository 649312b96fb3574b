import { field, sameVersion, type ScenarioRef } from './counter-keys';
import { reachedDay, type Reached, type ReachedBefore } from './reached';

/**
 * Where a conversation stopped, kept exact by counters: each conversation holds one "stop"
 * counter, in the hash of the day it first reached its current state, and moves it as it goes:
 * `stopEnd:S` (it ended in S), `stopHuman:S` (handed to a person in S), or `stopLive:S:m` (the
 * bot has it in S, its last message in minute m). The reading tells a live stop "dropped" or
 * "still in progress" by its minute against the quiet time; those that went on hold none in S.
 */
export type Stop = string;

/**
 * The form of records written before: an object (a live stop's minute, in `field` now, was also
 * kept apart by records of an earlier release). Read as well, and written as `Stop` at the next
 * step that moves it.
 */
export interface StopBefore {
	day: string;
	field: string;
	minute?: number;
}

/** A stop as the record keeps it: its day (YYYY-MM-DD), a space, its field. */
function stopOf(day: string, name: string): Stop {
	return `${day} ${name}`;
}

function stopDay(stop: Stop | StopBefore): string {
	return typeof stop === 'string' ? stop.slice(0, 10) : stop.day;
}

function stopField(stop: Stop | StopBefore): string {
	return typeof stop === 'string' ? stop.slice(11) : stop.field;
}

/** The same stop as `day` and `name`, without building its text. */
function isStop(stop: Stop | StopBefore, day: string, name: string): boolean {
	if (typeof stop !== 'string') return stop.day === day && stop.field === name;
	return stop.length === 11 + name.length && stop.startsWith(day) && stop.endsWith(name);
}

const MINUTE_MS = 60_000;

/** What a stop reads of a record (tallied.ts's TalliedRecord, which imports this file). */
interface StoppedRecord {
	scenario: ScenarioRef;
	snapshot: { value: string; context: { handedOff: boolean } };
	ended: boolean;
	reached?: Reached | ReachedBefore;
	stop?: Stop | StopBefore;
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
	const day = reachedDay(after.reached, state);
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
		day !== undefined &&
		from &&
		sameVersion(from, after.scenario) &&
		isStop(old, day, name)
	) {
		after.stop = old;
		return;
	}
	// A conversation that ended keeps its stop when it starts again: that run completed.
	if (old && from && !(before?.ended && step.started))
		tally.add(from, stopField(old), -1, stopDay(old));
	if (name === undefined || day === undefined) after.stop = undefined;
	else {
		after.stop = stopOf(day, name);
		tally.add(after.scenario, name, 1, day);
	}
}

/** A live stop's minute, from its field (`stopLive:S:m`); undefined for an end or a hand-off. */
function liveMinute(stop: Stop | StopBefore | undefined): number | undefined {
	if (!stop) return undefined;
	if (typeof stop !== 'string' && stop.minute !== undefined) return stop.minute;
	const name = stopField(stop);
	if (!name.startsWith('stopLive:')) return undefined;
	return Number(name.slice(name.lastIndexOf(':') + 1));
}
