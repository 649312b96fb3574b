import type { StepNote } from '../machine/setup';
import type { ScenarioRef } from './counter-keys';

/**
 * Notes a step leaves on the record the stepper built, for the write that saves it and counts it
 * (tally.ts): what the step entered, and what happened.
 */

/** The states one step entered in one scenario version, in order. */
export interface PathLeg {
	scenario: ScenarioRef;
	states: readonly string[];
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

// Facts and the path a step took (machine/compile.ts's visits) travel on the record the stepper
// built, under symbols: JSON leaves them out, so they are never stored, and only the write that
// saves the record reads them (and clears them). A WeakMap did the same for a microsecond a step.
const FACTS = Symbol('step facts');
const PATH = Symbol('step path');

/** A record as the stepper hands it to the write that saves it. */
interface Noted {
	[FACTS]?: StepFacts;
	[PATH]?: readonly PathLeg[];
}

export function notePath<R extends object>(record: R, path: readonly PathLeg[] | undefined): R {
	if (path) (record as Noted)[PATH] = path;
	return record;
}

export function stepPath(record: object): readonly PathLeg[] | undefined {
	return (record as Noted)[PATH];
}

export function noteStep<R extends object>(record: R, facts: StepFacts): R {
	(record as Noted)[FACTS] = facts;
	return record;
}

export function stepFacts(record: object): StepFacts | undefined {
	return (record as Noted)[FACTS];
}

/** The notes on `record`, taken off it: a later write of the same object is not the step again. */
export function takeNotes(record: object): {
	facts?: StepFacts;
	path?: readonly PathLeg[];
} {
	const noted = record as Noted;
	const facts = noted[FACTS];
	const path = noted[PATH];
	// Set to undefined, not deleted: a deleted property turns the object into a slower dictionary.
	if (facts !== undefined) noted[FACTS] = undefined;
	if (path !== undefined) noted[PATH] = undefined;
	return { facts, path };
}
