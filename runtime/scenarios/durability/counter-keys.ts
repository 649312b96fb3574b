import type { CounterIncrements } from '../../stores/types';

/**
 * Where the analytics counters live: one hash per scope, scenario version and UTC day (field per
 * counter), and one per scope and scenario version for the conversations in each state now.
 * Every part is URI-encoded, so `|`, `:` and `>` are free to separate them.
 */
export const COUNTERS_NAMESPACE = 'scenario-analytics';
export const DEFAULT_DAYS_KEPT = 90;
export const DAY_MS = 86_400_000;
const LIVE = 'now';

export interface ScenarioRef {
	id: string;
	version: number;
}

/** A counter hash's key, taken apart. `day` is undefined for the "in each state now" hash. */
export interface CounterKey {
	scope: string;
	scenario: ScenarioRef;
	day?: string;
}

const enc = encodeURIComponent;

/** The UTC day of a moment, as YYYY-MM-DD. */
export function dayOf(ms: number): string {
	return new Date(ms).toISOString().slice(0, 10);
}

export function scopePrefix(scope: string): string {
	return `${enc(scope)}|`;
}

export function counterKey(scope: string, scenario: ScenarioRef, day?: string): string {
	return `${scopePrefix(scope)}${enc(scenario.id)}@${scenario.version}|${day ?? LIVE}`;
}

export function parseCounterKey(key: string): CounterKey | undefined {
	const [scope, ref, day] = key.split('|');
	const at = ref?.lastIndexOf('@') ?? -1;
	if (day === undefined || at < 0) return undefined;
	const scenario = { id: decodeURIComponent(ref.slice(0, at)), version: Number(ref.slice(at + 1)) };
	return { scope: decodeURIComponent(scope), scenario, ...(day === LIVE ? {} : { day }) };
}

/** Counter field names: a counter, or a counter of one state or edge. */
export const field = {
	of: (name: string, state: string) => `${name}:${enc(state)}`,
	edge: (from: string, to: string) => `edge:${enc(from)}>${enc(to)}`,
	wait: (state: string, bucket: number) => `wait:${enc(state)}:${bucket}`,
};

/** A field taken apart: its counter name and the states it names. */
export function parseField(name: string): { counter: string; states: string[]; bucket?: number } {
	const [counter, rest, bucket] = name.split(':');
	if (rest === undefined) return { counter, states: [] };
	const states = rest.split('>').map(decodeURIComponent);
	return { counter, states, ...(bucket === undefined ? {} : { bucket: Number(bucket) }) };
}

/**
 * Waits in log-spaced buckets (each √2 wider than the last, from a second): the median of a
 * histogram of counters stays a counter, and a state never holds more than about fifty of them.
 */
export function waitBucket(ms: number): number {
	return Math.max(0, Math.ceil(2 * Math.log2(Math.max(1, ms / 1000))));
}

/** The longest wait in a bucket (ms). */
export function bucketLimitMs(bucket: number): number {
	return Math.round(1000 * 2 ** (bucket / 2));
}

/** One increment of a step: to the day's hash, or (`live`) to the "in each state now" hash. */
export interface Count {
	scenario: ScenarioRef;
	field: string;
	n: number;
	live?: boolean;
}

/** A step's counts as the store's increments, each hash kept `daysKept` days after its day. */
export function increments(
	scope: string,
	counts: readonly Count[],
	now: number,
	daysKept: number,
): CounterIncrements[] {
	const day = dayOf(now);
	const expiresAt = (Math.floor(now / DAY_MS) + 1 + daysKept) * DAY_MS;
	const byKey = new Map<string, Record<string, number>>();
	for (const count of counts) {
		const key = counterKey(scope, count.scenario, count.live ? undefined : day);
		let incr = byKey.get(key);
		if (!incr) byKey.set(key, (incr = {}));
		incr[count.field] = (incr[count.field] ?? 0) + count.n;
	}
	return [...byKey.entries()].map(([key, incr]) => ({ key, incr, expiresAt }));
}
