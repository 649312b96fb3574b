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

export function sameVersion(a: ScenarioRef | undefined, b: ScenarioRef): boolean {
	return a === b || (a?.id === b.id && a.version === b.version);
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

/**
 * Names are built on every step's write: each is made once and kept (bounded, all forgotten when
 * full), so counting costs the step a couple of map lookups and no new string.
 */
function cached<A, B, V>(make: (a: A, b: B) => V): (a: A, b: B) => V {
	let known = new Map<A, Map<B, V>>();
	let size = 0;
	return (a: A, b: B): V => {
		let inner = known.get(a);
		let name = inner?.get(b);
		if (name === undefined) {
			if (size >= 10_000) {
				known = new Map();
				size = 0;
				inner = undefined;
			}
			if (!inner) known.set(a, (inner = new Map()));
			inner.set(b, (name = make(a, b)));
			size++;
		}
		return name;
	};
}

export function scopePrefix(scope: string): string {
	return `${enc(scope)}|`;
}

// Per scope and scenario id, the hash keys of its versions and days.
const keysOf = cached((scope: string, id: string) => {
	const prefix = `${scopePrefix(scope)}${enc(id)}@`;
	return cached((version: number, day: string) => `${prefix}${version}|${day}`);
});

function counterKey(scope: string, scenario: ScenarioRef, day?: string): string {
	return keysOf(scope, scenario.id)(scenario.version, day ?? LIVE);
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
	of: cached((name: string, state: string) => `${name}:${enc(state)}`),
	edge: cached((from: string, to: string) => `edge:${enc(from)}>${enc(to)}`),
	wait: cached((state: string, bucket: number) => `wait:${enc(state)}:${bucket}`),
	keyword: cached((from: string, to: string) => `keyword:${enc(from)}>${enc(to)}`),
	/** Where a conversation stopped, in the day it first reached the state (stops.ts). */
	stop: cached((how: string, state: string) => `stop${how}:${enc(state)}`),
	/** Clients sent down a split test's variant, and those of them that reached its goal. */
	variant: cached((test: string, variant: string) => `variant:${enc(test)}>${enc(variant)}`),
	variantGoal: cached(
		(test: string, variant: string) => `variantGoal:${enc(test)}>${enc(variant)}`,
	),
	/** A live conversation stopped at a state, by the minute of its last message. */
	stopLive: cached((state: string, minute: number) => `stopLive:${enc(state)}:${minute}`),
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

/**
 * A step's counts per scenario version: to its day's hash, to earlier days' hashes (where a
 * conversation's stop is kept), and to its "in each state now" hash.
 */
export interface VersionCounts {
	scenario: ScenarioRef;
	day: Map<string, number>;
	live: ReadonlyMap<string, number>;
	past?: Map<string, Map<string, number>>;
}

let lastDay = { number: -1, day: '' };

/** The UTC day of `now`, kept from the last call (a step asks it more than once). */
export function today(now: number): string {
	const dayNumber = Math.floor(now / DAY_MS);
	if (dayNumber !== lastDay.number) lastDay = { number: dayNumber, day: dayOf(now) };
	return lastDay.day;
}

/** A step's counts as the store's increments, each hash kept `daysKept` days after its day. */
export function increments(
	scope: string,
	counts: readonly VersionCounts[],
	now: number,
	daysKept: number,
): CounterIncrements[] {
	const dayNumber = Math.floor(now / DAY_MS);
	const day0 = today(now);
	const expiresAt = (dayNumber + 1 + daysKept) * DAY_MS;
	const hashes: CounterIncrements[] = [];
	for (const { scenario, day, live, past } of counts) {
		if (day.size > 0) hashes.push({ key: counterKey(scope, scenario, day0), incr: day, expiresAt });
		if (live.size > 0) hashes.push({ key: counterKey(scope, scenario), incr: live, expiresAt });
		// An earlier day's hash keeps its own deadline.
		for (const [d, incr] of past ?? []) {
			const until = (Math.floor(Date.parse(d) / DAY_MS) + 1 + daysKept) * DAY_MS;
			// One already forgotten is not started again by a stop's decrement.
			if (until > now && incr.size > 0)
				hashes.push({ key: counterKey(scope, scenario, d), incr, expiresAt: until });
		}
	}
	return hashes;
}
