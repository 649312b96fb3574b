import type { CounterHash, StateStore } from '../../stores/types';
import {
	COUNTERS_NAMESPACE,
	DAY_MS,
	dayOf,
	parseCounterKey,
	scopePrefix,
	type CounterKey,
} from './counter-keys';
import { cmp, funnelOf, type FunnelSummary, type StateFunnel } from './funnel';
import { splitTests, type SplitTestReport } from './split-reading';

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
	/** No message for this long after a state: "dropped" (else "still in progress"). 24 h by default. */
	quietMs?: number;
	/** The reading's moment, for the quiet time (now by default). */
	now?: number;
	/** The smallest difference a split test's verdict tells, in points (default 5). */
	differencePoints?: number;
}

const DEFAULT_QUIET_MS = 24 * 3_600_000;

/** A scenario's states for the reading: its main path first (main-path.ts), then the others. */
export interface StateOrder {
	mainPath: string[];
	states: string[];
}

export interface VersionFunnel {
	scope: string;
	scenario: string;
	version: number;
	/** The day, per day; the period's first and last day otherwise. */
	from: string;
	to: string;
	states: StateFunnel[];
	/** The main path's states in order, with the scenario at hand (a funnel's bars); else []. */
	mainPath: string[];
	summary: FunnelSummary;
}

export interface AnalyticsReport {
	from: string;
	to: string;
	versions: VersionFunnel[];
	/** Each split test's variants and verdict over the period, its scenario's versions summed. */
	splits: SplitTestReport[];
}

/** Where the conversations that reached a state stand: a funnel's bar. */
type StateStops = Pick<StateFunnel, (typeof STOPS)[number]>;

/**
 * The diagram's traffic overlay: per state the conversations that reached it ("entered") and
 * dropped there ("dropOff"), with all four stops; edge counts by the states' own arrows, and
 * apart the moves by keywords. `mainPath`: the funnel's states in order (empty when unknown).
 */
export interface Traffic {
	states: Record<string, StateStops & { entered: number; dropOff: number }>;
	edges: Array<{ from: string; to: string; count: number }>;
	keywordEdges: Array<{ from: string; to: string; count: number }>;
	mainPath: string[];
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
	query: AnalyticsQuery & { scope?: string; order?: (scenario: string) => StateOrder | undefined },
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
	const quiet = { now: query.now ?? Date.now(), quietMs: query.quietMs ?? DEFAULT_QUIET_MS };
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
			const funnel = funnelOf(sumFields(within), now?.fields ?? {}, order?.states, quiet);
			versions.push({
				scope: key.scope,
				scenario: key.scenario.id,
				version: key.scenario.version,
				from: first,
				to: last,
				states: funnel.states,
				mainPath: order?.mainPath ?? [],
				summary: funnel.summary,
			});
		}
	}
	versions.sort(
		(a, b) => cmp(a.scenario, b.scenario) || a.version - b.version || cmp(a.from, b.from),
	);
	const sources = [...groups.values()].map(({ key, days }) => ({
		scope: key.scope,
		scenario: key.scenario.id,
		fields: sumFields(days),
	}));
	const splits = splitTests(sources, { differencePoints: query.differencePoints });
	return { from, to, versions, splits };
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

/** The traffic of a report (all its entries summed), for the diagram's overlay and a funnel. */
export function trafficOf(report: AnalyticsReport): Traffic {
	const states: Traffic['states'] = {};
	const edges = new Map<string, Traffic['edges'][number]>();
	const keywordEdges = new Map<string, Traffic['edges'][number]>();
	const addEdge = (into: typeof edges, from: string, to: string, count: number) => {
		const id = JSON.stringify([from, to]);
		const found = into.get(id) ?? { from, to, count: 0 };
		found.count += count;
		into.set(id, found);
	};
	let mainPath: string[] = [];
	for (const version of report.versions) {
		// The newest version's main path (versions come sorted by version).
		if (version.mainPath.length > 0) mainPath = version.mainPath;
		for (const state of version.states) {
			const seen = (states[state.state] ??= {
				...{ entered: 0, dropOff: 0, reached: 0, visits: 0 },
				...{ completed: 0, handedOff: 0, dropped: 0, inProgress: 0 },
			});
			for (const name of STOPS) seen[name] += state[name];
			seen.entered = seen.reached;
			seen.dropOff = seen.dropped;
			for (const edge of state.edges) addEdge(edges, state.state, edge.to, edge.count);
			for (const edge of state.keywordEdges)
				addEdge(keywordEdges, state.state, edge.to, edge.count);
		}
	}
	return {
		states,
		edges: [...edges.values()],
		keywordEdges: [...keywordEdges.values()],
		mainPath,
	};
}

const STOPS = ['reached', 'visits', 'completed', 'handedOff', 'dropped', 'inProgress'] as const;
