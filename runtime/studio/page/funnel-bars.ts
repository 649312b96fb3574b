import type { StateFunnel, VersionFunnel } from './runtime-bridge';

/**
 * The funnel view's figures: the main path's states in order, each with the conversations that
 * reached it and where those that stopped there stand, the loss to the next state; one version
 * of the scenario or all of them summed. Pure, so the view only draws.
 */

export const STOPS = ['completed', 'handedOff', 'dropped', 'inProgress'] as const;
type Stop = (typeof STOPS)[number];
type Counts = Record<'reached' | Stop, number>;

export interface FunnelBar extends Counts {
	state: string;
	/** Conversations that reached this state and not the next one (negative: more came from elsewhere). */
	lost?: number;
}

interface FunnelView {
	bars: FunnelBar[];
	/** Every state's stops summed, the main path's or not: where all the conversations stand. */
	apart: Record<Stop, number>;
	conversations: number;
	/** The versions the reading found, oldest first. */
	versions: number[];
}

const zero = (): Counts => ({ reached: 0, completed: 0, handedOff: 0, dropped: 0, inProgress: 0 });

function add(into: Counts, state: StateFunnel): void {
	into.reached += state.reached;
	for (const stop of STOPS) into[stop] += state[stop];
}

export function funnelView(
	versions: readonly VersionFunnel[],
	version: number | 'all',
	mainPath: readonly string[],
): FunnelView {
	const picked = versions.filter((v) => version === 'all' || v.version === version);
	const byState = new Map<string, Counts>();
	const apart = { completed: 0, handedOff: 0, dropped: 0, inProgress: 0 };
	let conversations = 0;
	for (const v of picked) {
		conversations += v.summary.conversations;
		for (const state of v.states) {
			const seen = byState.get(state.state) ?? zero();
			add(seen, state);
			byState.set(state.state, seen);
			for (const stop of STOPS) apart[stop] += state[stop];
		}
	}
	const bars: FunnelBar[] = mainPath.map((state) => ({ state, ...(byState.get(state) ?? zero()) }));
	bars.forEach((bar, i) => {
		if (i < bars.length - 1) bar.lost = bar.reached - bars[i + 1].reached;
	});
	const found = [...new Set(versions.map((v) => v.version))].sort((a, b) => a - b);
	return { bars, apart, conversations, versions: found };
}
