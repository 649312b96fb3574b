/**
 * When a store deletes what expired: at most once a minute by its own clock, the first a minute
 * after it opened. A sweep reads whole tables, so it is paid for by time, not by traffic: a busy
 * store does not sweep more often, and two runs of the same work sweep alike (a sweep drawn by
 * chance every thousand writes did neither).
 */
export const SWEEP_EVERY_MS = 60_000;

export class SweepSchedule {
	private last: number;

	constructor(now: number) {
		this.last = now;
	}

	/** Whether to sweep at `now`; if so, the next is a minute on. */
	due(now: number): boolean {
		// A clock that went back (a test's, or the system's) starts the minute again.
		if (now < this.last) this.last = now;
		if (now - this.last < SWEEP_EVERY_MS) return false;
		this.last = now;
		return true;
	}
}
