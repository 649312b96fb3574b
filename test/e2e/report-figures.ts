import type { AnalyticsItem } from './order-split-workflows';
import type { StateFigures, Tally } from './transcript-tally';

/**
 * Get Analytics' items (read through n8n by order-split-workflows.ts) in the shape of the
 * transcripts' tally (transcript-tally.ts), so the two compare with one toEqual each.
 */

type Edge = { to: string; count: number };
const asRecord = (edges: unknown) =>
	Object.fromEntries((edges as Edge[]).map((e) => [e.to, e.count]));

/** The report's states as the transcripts' tally holds them, idle ones left out. */
export function stateFigures(items: AnalyticsItem[]): Record<string, StateFigures> {
	const states: Record<string, StateFigures> = {};
	for (const item of items.filter((i) => i.kind === 'state')) {
		const figures = {
			reached: item.reached,
			visits: item.visits,
			completed: item.completed,
			handedOff: item.handedOff,
			dropped: item.dropped,
			inProgress: item.inProgress,
			now: item.now,
			edges: asRecord(item.edges),
			keywordEdges: asRecord(item.keywordEdges),
		} as StateFigures;
		if (!idle(figures)) states[item.state] = figures;
	}
	return states;
}

/** A state no conversation touched: the report lists every state of the scenario. */
function idle(f: StateFigures): boolean {
	return f.visits === 0 && f.now === 0 && Object.keys(f.edges).length === 0;
}

/** The report's summary item: the figures the transcripts tell too. */
export function summaryOf(items: AnalyticsItem[]): Tally['summary'] {
	const s = items.find((i) => i.kind === 'summary') as unknown as Tally['summary'];
	return {
		conversations: s.conversations,
		completed: s.completed,
		handoffs: s.handoffs,
		dropped: s.dropped,
		inProgress: s.inProgress,
		messages: s.messages,
		fallbacks: s.fallbacks,
		replies: s.replies,
	};
}

/** The report's items for each split variant, as the reference gives them (split-reference.ts). */
export function variantFigures(items: AnalyticsItem[]) {
	return items
		.filter((i) => i.kind === 'variant')
		.map((item) => ({
			variant: item.variant as string,
			clients: item.clients as number,
			goalReached: item.goalReached as number,
			conversion: item.conversion as number,
			conversionLow: item.conversionLow as number,
			conversionHigh: item.conversionHigh as number,
			probabilityBest: item.probabilityBest as number,
			moreClientsNeeded: item.moreClientsNeeded as number,
			verdict: item.verdict as string,
			verdictReady: item.verdictReady as boolean,
			best: item.best as boolean,
		}));
}

/**
 * `expected`, each figure within 1e-6 of `actual`'s replaced by it (the reference is a closed
 * form, the package integrates numerically): a diff then shows only the figures that differ.
 */
export function near<T extends Record<string, unknown>>(
	actual: Record<string, unknown>,
	expected: T,
): T {
	const close = (a: unknown, e: unknown) =>
		typeof a === 'number' && typeof e === 'number' && Math.abs(a - e) < 1e-6;
	return Object.fromEntries(
		Object.entries(expected).map(([k, e]) => [k, close(actual[k], e) ? actual[k] : e]),
	) as T;
}

/** The tally's states, idle ones left out (a state the transcripts never show is not in it). */
export function busy(states: Record<string, StateFigures>): Record<string, StateFigures> {
	return Object.fromEntries(Object.entries(states).filter(([, f]) => !idle(f)));
}
