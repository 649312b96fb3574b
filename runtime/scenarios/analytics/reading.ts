import type { CounterHash, StateStore } from '../../stores/types';
import {
	bucketLimitMs,
	COUNTERS_NAMESPACE,
	DAY_MS,
	dayOf,
	parseCounterKey,
	parseField,
	scopePrefix,
	type CounterKey,
} from './counter-keys';
import { END_STATE } from '../machine/setup';

/**
 * The funnel read from the analytics counters (tally.ts): per scenario version,
 * per state what came in, what stopped there and where the rest went, and a summary. No n8n here:
 * the Scenario node, the CLI and the diagram's traffic all read this.
 */

export interface AnalyticsQuery {
	/** First and last UTC day, inclusive (YYYY-MM-DD, or a moment in it). */
	from: string | number | Date;
	to: string | number | Date;
	/** Only this scenario id. */
	scenario?: string;
	/** One entry per day instead of one for the whole period. */
	perDay?: boolean;
}

interface StateFunnel {
	state: string;
	entered: number;
	/** Conversations whose last state in the period it was (entered and not left). */
	dropOff: number;
	/** dropOff / entered; null when none entered. */
	dropOffShare: number | null;
	/** Median time to the next state (ms, the upper bound of its bucket); null when none left. */
	medianToNextMs: number | null;
	edges: Array<{ to: string; count: number }>;
	/** Conversations in this state now (whatever the period). */
	now: number;
	fallbacks: number;
	retries: number;
	giveUps: number;
	timers: number;
}

interface FunnelSummary {
	conversations: number;
	completed: number;
	completionRate: number | null;
	handoffs: number;
	handoffRate: number | null;
	releases: number;
	messages: number;
	fallbacks: number;
	fallbackRate: number | null;
	lateMessages: number;
	replies: { sent: number; unknown: number; failed: number };
	/** Workflow calls by outcome. */
	calls: Record<string, number>;
}

export interface VersionFunnel {
	scope: string;
	scenario: string;
	version: number;
	/** The day, per day; the period's first and last day otherwise. */
	from: string;
	to: string;
	states: StateFunnel[];
	summary: FunnelSummary;
}

export interface AnalyticsReport {
	from: string;
	to: string;
	versions: VersionFunnel[];
}

/** The diagram's traffic overlay: conversations entered and dropped per state, edge counts. */
export interface Traffic {
	states: Record<string, { entered: number; dropOff: number }>;
	edges: Array<{ from: string; to: string; count: number }>;
}

function toDay(at: string | number | Date): string {
	if (typeof at === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(at)) return at;
	const ms = at instanceof Date ? at.getTime() : typeof at === 'number' ? at : Date.parse(at);
	if (Number.isNaN(ms)) throw new Error(`Not a date: ${String(at)}`);
	return dayOf(ms);
}

/** Reads the funnel of one scope (or of every scope, for the CLI) from the store's counters. */
export async function readAnalytics(
	store: Pick<StateStore, 'counters'>,
	query: AnalyticsQuery & { scope?: string; order?: (scenario: string) => string[] | undefined },
): Promise<AnalyticsReport> {
	const from = toDay(query.from);
	const to = toDay(query.to);
	if (from > to) throw new Error(`From (${from}) is after To (${to})`);
	const prefix = query.scope === undefined ? '' : scopePrefix(query.scope);
	const hashes = await store.counters(COUNTERS_NAMESPACE, prefix);
	const groups = new Map<string, { key: CounterKey; days: CounterHash[]; now?: CounterHash }>();
	for (const hash of hashes) {
		const key = parseCounterKey(hash.key);
		if (!key || (query.scenario !== undefined && key.scenario.id !== query.scenario)) continue;
		const id = JSON.stringify([key.scope, key.scenario.id, key.scenario.version]);
		let group = groups.get(id);
		if (!group) groups.set(id, (group = { key, days: [] }));
		if (key.day === undefined) group.now = hash;
		else if (key.day >= from && key.day <= to) group.days.push(hash);
	}
	const versions: VersionFunnel[] = [];
	for (const { key, days, now } of groups.values()) {
		const order = query.order?.(key.scenario.id);
		const periods = query.perDay ? daysBetween(from, to).map((d) => [d, d]) : [[from, to]];
		for (const [first, last] of periods) {
			const within = days.filter((h) => {
				const day = parseCounterKey(h.key)?.day ?? '';
				return day >= first && day <= last;
			});
			if (within.length === 0 && (query.perDay || !now)) continue;
			const funnel = funnelOf(sumFields(within), now?.fields ?? {}, order);
			versions.push({
				scope: key.scope,
				scenario: key.scenario.id,
				version: key.scenario.version,
				from: first,
				to: last,
				...funnel,
			});
		}
	}
	versions.sort(
		(a, b) => cmp(a.scenario, b.scenario) || a.version - b.version || cmp(a.from, b.from),
	);
	return { from, to, versions };
}

function cmp(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}

function daysBetween(from: string, to: string): string[] {
	const days: string[] = [];
	for (let ms = Date.parse(from); dayOf(ms) <= to; ms += DAY_MS) days.push(dayOf(ms));
	return days;
}

function sumFields(hashes: readonly CounterHash[]): Record<string, number> {
	const sum: Record<string, number> = {};
	for (const hash of hashes)
		for (const [name, n] of Object.entries(hash.fields)) sum[name] = (sum[name] ?? 0) + n;
	return sum;
}

/** What one scenario version's counters say, over the days summed in `fields`. */
function funnelOf(
	fields: Record<string, number>,
	live: Record<string, number>,
	order: string[] | undefined,
): Pick<VersionFunnel, 'states' | 'summary'> {
	const states = new Map<string, StateFunnel & { left: number; waits: Map<number, number> }>();
	const stateOf = (name: string) => {
		let found = states.get(name);
		if (!found) {
			const blank = { entered: 0, dropOff: 0, dropOffShare: null, medianToNextMs: null, now: 0 };
			found = {
				state: name,
				...blank,
				edges: [],
				fallbacks: 0,
				retries: 0,
				giveUps: 0,
				timers: 0,
				left: 0,
				waits: new Map(),
			};
			states.set(name, found);
		}
		return found;
	};
	for (const name of order ?? []) stateOf(name);
	for (const [state, n] of Object.entries(live)) if (n !== 0) stateOf(state).now = n;
	const totals: Record<string, number> = {};
	for (const [name, n] of Object.entries(fields)) addField(stateOf, totals, name, n);
	const funnel = [...states.values()].map(({ left, waits, ...state }) => ({
		...state,
		dropOff: Math.max(0, state.entered - left),
		dropOffShare: state.entered > 0 ? Math.max(0, state.entered - left) / state.entered : null,
		medianToNextMs: median(waits),
		edges: state.edges.sort((a, b) => b.count - a.count || cmp(a.to, b.to)),
	}));
	// Without the scenario at hand: the busiest first, the end last.
	const last = (s: StateFunnel) => (s.state === END_STATE ? 1 : 0);
	if (!order)
		funnel.sort((a, b) => last(a) - last(b) || b.entered - a.entered || cmp(a.state, b.state));
	return { states: funnel, summary: summaryOf(totals, funnel) };
}

type Building = StateFunnel & { left: number; waits: Map<number, number> };

const PER_STATE: Record<
	string,
	'entered' | 'left' | 'fallbacks' | 'retries' | 'giveUps' | 'timers'
> = {
	entered: 'entered',
	left: 'left',
	fallback: 'fallbacks',
	retry: 'retries',
	giveup: 'giveUps',
	timer: 'timers',
};

function addField(
	stateOf: (name: string) => Building,
	totals: Record<string, number>,
	name: string,
	n: number,
): void {
	const { counter, states, bucket } = parseField(name);
	const perState = PER_STATE[counter];
	if (perState && states.length === 1) {
		stateOf(states[0])[perState] += n;
		if (perState !== 'entered' && perState !== 'left') totals[counter] = (totals[counter] ?? 0) + n;
	} else if (counter === 'edge' && states.length === 2) {
		// A transition out is a leaving too (the "left" counter holds the other ways out).
		stateOf(states[0]).edges.push({ to: states[1], count: n });
		stateOf(states[0]).left += n;
		stateOf(states[1]);
	} else if (counter === 'wait' && bucket !== undefined) {
		const waits = stateOf(states[0]).waits;
		waits.set(bucket, (waits.get(bucket) ?? 0) + n);
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
	const fallbacks = states.reduce((n, s) => n + s.fallbacks, 0);
	return {
		conversations: get('started'),
		completed: get('ended'),
		completionRate: rate(get('ended'), get('started')),
		handoffs: get('handoff'),
		handoffRate: rate(get('handoff'), get('started')),
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

/** The traffic of a report (all its entries summed), for the diagram's overlay. */
export function trafficOf(report: AnalyticsReport): Traffic {
	const states: Traffic['states'] = {};
	const edges = new Map<string, Traffic['edges'][number]>();
	for (const version of report.versions)
		for (const state of version.states) {
			const seen = (states[state.state] ??= { entered: 0, dropOff: 0 });
			seen.entered += state.entered;
			seen.dropOff += state.dropOff;
			for (const edge of state.edges) {
				const id = JSON.stringify([state.state, edge.to]);
				const found = edges.get(id) ?? { from: state.state, to: edge.to, count: 0 };
				found.count += edge.count;
				edges.set(id, found);
			}
		}
	return { states, edges: [...edges.values()] };
}
