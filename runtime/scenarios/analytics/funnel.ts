import { bucketLimitMs, parseField } from './counter-keys';
import { END_STATE } from '../machine/setup';

/**
 * One scenario version's funnel from its counters summed over a period (tally.ts, stops.ts):
 * per state the conversations that reached it, its visits, where those that stopped there
 * stand, where the others went; and a summary.
 */

export interface StateFunnel {
	state: string;
	/** Conversations that reached it in the period: each once, the first time in its run. */
	reached: number;
	/** Every entry into it, a loop's returns included. */
	visits: number;
	/** Of those reached in the period, the ones that stopped here: ended here (an end). */
	completed: number;
	/** ... with a person here (handed off). */
	handedOff: number;
	/** ... with no message for the quiet time (default 24 h). */
	dropped: number;
	/** ... still in progress: a message within the quiet time. */
	inProgress: number;
	/** dropped / reached; null when none reached it. */
	dropOffShare: number | null;
	/** Median time to the next state (ms, the upper bound of its bucket); null when none left. */
	medianToNextMs: number | null;
	/** Moves by this state's own arrows. */
	edges: Array<{ to: string; count: number }>;
	/** Moves out of it by a keyword (drawn from "any state"), apart from its own arrows. */
	keywordEdges: Array<{ to: string; count: number }>;
	/** Conversations in this state now (whatever the period). */
	now: number;
	fallbacks: number;
	retries: number;
	giveUps: number;
	timers: number;
}

export interface FunnelSummary {
	conversations: number;
	completed: number;
	completionRate: number | null;
	handoffs: number;
	handoffRate: number | null;
	/** Where they stopped, over all states (the states' buckets summed). */
	dropped: number;
	inProgress: number;
	releases: number;
	messages: number;
	fallbacks: number;
	fallbackRate: number | null;
	lateMessages: number;
	replies: { sent: number; unknown: number; failed: number };
	/** Workflow calls by outcome. */
	calls: Record<string, number>;
}

/** When the reading tells "dropped" from "still in progress". */
export interface QuietRule {
	/** The reading's moment (ms). */
	now: number;
	/** No message for this long after the state: dropped. */
	quietMs: number;
}

type Building = StateFunnel & { waits: Map<number, number> };

const MINUTE_MS = 60_000;

function blank(state: string): Building {
	return {
		state,
		reached: 0,
		visits: 0,
		completed: 0,
		handedOff: 0,
		dropped: 0,
		inProgress: 0,
		dropOffShare: null,
		medianToNextMs: null,
		edges: [],
		keywordEdges: [],
		now: 0,
		fallbacks: 0,
		retries: 0,
		giveUps: 0,
		timers: 0,
		waits: new Map(),
	};
}

export function funnelOf(
	fields: Record<string, number>,
	live: Record<string, number>,
	order: readonly string[] | undefined,
	quiet: QuietRule,
): { states: StateFunnel[]; summary: FunnelSummary } {
	const states = new Map<string, Building>();
	const stateOf = (name: string) => {
		let found = states.get(name);
		if (!found) states.set(name, (found = blank(name)));
		return found;
	};
	for (const name of order ?? []) stateOf(name);
	for (const [state, n] of Object.entries(live)) if (n !== 0) stateOf(state).now = n;
	const totals: Record<string, number> = {};
	for (const [name, n] of Object.entries(fields))
		if (n !== 0) addField(stateOf, totals, name, n, quiet);
	const funnel = [...states.values()].map(({ waits, ...state }) => ({
		...state,
		dropOffShare: state.reached > 0 ? state.dropped / state.reached : null,
		medianToNextMs: median(waits),
		edges: state.edges.sort(byCount),
		keywordEdges: state.keywordEdges.sort(byCount),
	}));
	// Without the scenario at hand: the busiest first, the end last.
	const last = (s: StateFunnel) => (s.state === END_STATE ? 1 : 0);
	if (!order)
		funnel.sort((a, b) => last(a) - last(b) || b.reached - a.reached || cmp(a.state, b.state));
	return { states: funnel, summary: summaryOf(totals, funnel) };
}

export function cmp(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}

function byCount(a: { to: string; count: number }, b: { to: string; count: number }): number {
	return b.count - a.count || cmp(a.to, b.to);
}

const PER_STATE: Record<
	string,
	'reached' | 'visits' | 'completed' | 'handedOff' | 'fallbacks' | 'retries' | 'giveUps' | 'timers'
> = {
	reached: 'reached',
	entered: 'visits',
	stopEnd: 'completed',
	stopHuman: 'handedOff',
	fallback: 'fallbacks',
	retry: 'retries',
	giveup: 'giveUps',
	timer: 'timers',
};
const NOT_TOTALS = new Set(['reached', 'entered', 'stopEnd', 'stopHuman', 'left']);

function addField(
	stateOf: (name: string) => Building,
	totals: Record<string, number>,
	name: string,
	n: number,
	quiet: QuietRule,
): void {
	const { counter, states, bucket } = parseField(name);
	const perState = PER_STATE[counter];
	if (counter === 'left') return;
	if (perState && states.length === 1) {
		stateOf(states[0])[perState] += n;
		if (!NOT_TOTALS.has(counter)) totals[counter] = (totals[counter] ?? 0) + n;
	} else if ((counter === 'edge' || counter === 'keyword') && states.length === 2) {
		const list = counter === 'edge' ? stateOf(states[0]).edges : stateOf(states[0]).keywordEdges;
		list.push({ to: states[1], count: n });
		stateOf(states[1]);
	} else if (counter === 'wait' && bucket !== undefined) {
		const waits = stateOf(states[0]).waits;
		waits.set(bucket, (waits.get(bucket) ?? 0) + n);
	} else if (counter === 'stopLive' && bucket !== undefined) {
		// Quiet from the end of the minute of the last message.
		const quietSince = (bucket + 1) * MINUTE_MS;
		const state = stateOf(states[0]);
		if (quietSince + quiet.quietMs <= quiet.now) state.dropped += n;
		else state.inProgress += n;
	} else totals[name] = (totals[name] ?? 0) + n;
}

function median(buckets: Map<number, number>): number | null {
	const total = [...buckets.values()].reduce((a, b) => a + b, 0);
	if (total <= 0) return null;
	let seen = 0;
	for (const bucket of [...buckets.keys()].sort((a, b) => a - b)) {
		seen += buckets.get(bucket) ?? 0;
		if (seen * 2 >= total) return bucketLimitMs(bucket);
	}
	return null;
}

function rate(part: number, whole: number): number | null {
	return whole > 0 ? part / whole : null;
}

function summaryOf(totals: Record<string, number>, states: StateFunnel[]): FunnelSummary {
	const get = (name: string) => totals[name] ?? 0;
	const calls = Object.fromEntries(
		Object.entries(totals)
			.filter(([name]) => name.startsWith('call:'))
			.map(([name, n]) => [name.slice(5), n]),
	);
	const sum = (pick: (s: StateFunnel) => number) => states.reduce((n, s) => n + pick(s), 0);
	const fallbacks = sum((s) => s.fallbacks);
	return {
		conversations: get('started'),
		completed: get('ended'),
		completionRate: rate(get('ended'), get('started')),
		handoffs: get('handoff'),
		handoffRate: rate(get('handoff'), get('started')),
		dropped: sum((s) => s.dropped),
		inProgress: sum((s) => s.inProgress),
		releases: get('release'),
		messages: get('messages'),
		fallbacks,
		fallbackRate: rate(fallbacks, get('messages')),
		lateMessages: get('late'),
		replies: {
			sent: get('reply:sent'),
			unknown: get('reply:unknown'),
			failed: get('reply:failed'),
		},
		calls,
	};
}
