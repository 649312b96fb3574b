import type { StateStore } from '../../stores/types';
import { readAnalytics, trafficOf, type StateOrder, type Traffic } from '../analytics/reading';

/**
 * A period's traffic of one scenario, read from a store's analytics counters, for the picture
 * (Get Diagram, the CLI's diagram) and the studio's graph. No n8n here.
 */

export interface TrafficQuery {
	scenario: string;
	/** First and last UTC day (YYYY-MM-DD), inclusive. */
	from: string;
	to: string;
	/** Only the conversations of this scope (a Scenario node's); all of them otherwise. */
	scope?: string;
	/** The scenario's states, main path first (analytics/main-path.ts), when it is at hand. */
	order?: StateOrder;
	/** No message for this long after a state: dropped (24 h by default). */
	quietMs?: number;
}

const DAY = 86_400_000;

/** The period asked for: To defaults to today, From to 6 days before To (7 days in all). */
export function trafficPeriod(
	asked: { from?: string; to?: string },
	now = Date.now(),
): { from: string; to: string } {
	const to = asked.to || new Date(now).toISOString().slice(0, 10);
	const from = asked.from || new Date(Date.parse(to) - 6 * DAY).toISOString().slice(0, 10);
	return { from, to };
}

/** Every version of the scenario summed: the picture is of the scenario, not of one version. */
export async function readTraffic(
	store: Pick<StateStore, 'counters'>,
	query: TrafficQuery,
): Promise<Traffic & { from: string; to: string }> {
	const { order, ...rest } = query;
	const report = await readAnalytics(store, { ...rest, ...(order ? { order: () => order } : {}) });
	return { from: report.from, to: report.to, ...trafficOf(report) };
}
