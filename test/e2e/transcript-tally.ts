import type { RunningEmulator } from '../emulator';
import { call } from '../helpers/emulator';
import { GOAL_STATE, isKeyword, statesShownBy, VARIANT_OF } from './order-split';

/**
 * The funnel of the split order-status bot counted from what the service holds: each client's
 * messages and the bot's replies, in order, read the way docs/analytics.md defines the counts,
 * without the package's code. What the Scenario node's Get Analytics reads must equal it.
 */

export type Message = { direction: string; text: string; timestamp: string };

/** Every message between the bot and each client, oldest first. */
export async function transcriptsOf(
	emulator: RunningEmulator,
	clientIds: readonly string[],
): Promise<Map<string, Message[]>> {
	const all = new Map<string, Message[]>();
	for (const id of clientIds) {
		const { body } = await call<Message[]>(emulator, 'GET', `/clients/${id}/messages?limit=100`);
		all.set(id, body.data);
	}
	return all;
}

export type StateFigures = {
	reached: number;
	visits: number;
	completed: number;
	handedOff: number;
	dropped: number;
	inProgress: number;
	now: number;
	edges: Record<string, number>;
	keywordEdges: Record<string, number>;
};

export type Tally = {
	states: Record<string, StateFigures>;
	summary: {
		conversations: number;
		completed: number;
		handoffs: number;
		dropped: number;
		inProgress: number;
		messages: number;
		fallbacks: number;
		replies: { sent: number; unknown: number; failed: number };
	};
	variants: Record<string, { clients: number; goalReached: number }>;
	/** The variants each client was shown, and whether it passed the split more than once. */
	shown: Map<string, { variants: Set<string>; passes: number }>;
};

/** When the reading was taken, and how long the quiet time is. */
export type Reading = { from: number; to: number; quietMs: number };

const MINUTE = 60_000;

/**
 * Dropped or in progress: quiet from the end of the minute of the step of the client's last
 * message, which happened between the message reaching the service and its first reply. A
 * client whose bucket those bounds and the reading's cannot tell is an error (the test's timing
 * failed, not the counters).
 */
function liveBucket(
	step: readonly [written: number, answered: number],
	reading: Reading,
	client: string,
): 'dropped' | 'inProgress' {
	const quietAt = (t: number) => (Math.floor(t / MINUTE) + 1) * MINUTE + reading.quietMs;
	const dropped = step.map((t) => [reading.from, reading.to].map((r) => quietAt(t) <= r));
	const flat = dropped.flat();
	if (flat.some((d) => d !== flat[0]))
		throw new Error(`${client}: the reading's moment cannot tell dropped from in progress`);
	return flat[0] ? 'dropped' : 'inProgress';
}

function blank(): StateFigures {
	return {
		reached: 0,
		visits: 0,
		completed: 0,
		handedOff: 0,
		dropped: 0,
		inProgress: 0,
		now: 0,
		edges: {},
		keywordEdges: {},
	};
}

export function tallyOf(transcripts: Map<string, Message[]>, reading: Reading): Tally {
	const tally: Tally = {
		states: {},
		summary: {
			conversations: 0,
			completed: 0,
			handoffs: 0,
			dropped: 0,
			inProgress: 0,
			messages: 0,
			fallbacks: 0,
			replies: { sent: 0, unknown: 0, failed: 0 },
		},
		variants: {},
		shown: new Map(),
	};
	for (const [client, messages] of transcripts) tallyClient(tally, client, messages, reading);
	return tally;
}

function tallyClient(tally: Tally, client: string, messages: Message[], reading: Reading): void {
	const state = (name: string) => (tally.states[name] ??= blank());
	const shown = { variants: new Set<string>(), passes: 0 };
	tally.shown.set(client, shown);
	let at: string | undefined;
	let ended = true;
	let handedOff = false;
	let reached = new Set<string>();
	let keyword = false;
	let firstMove = false;
	// When the client's last message reached the service, and when its first reply did.
	let writtenAt = 0;
	let stepAt: number | undefined;
	let variant: string | undefined;
	let goal = false;
	for (const m of messages) {
		if (m.direction === 'inbound') {
			tally.summary.messages++;
			keyword = isKeyword(m.text);
			firstMove = true;
			writtenAt = Date.parse(m.timestamp);
			stepAt = undefined;
			continue;
		}
		tally.summary.replies.sent++;
		stepAt ??= Date.parse(m.timestamp);
		const { states, fallback } = statesShownBy(m.text);
		if (fallback) tally.summary.fallbacks++;
		for (const next of states) {
			if (ended) {
				// A new conversation: its own run of states reached, no arrow from the last one.
				tally.summary.conversations++;
				[at, ended, handedOff, reached] = [undefined, false, false, new Set()];
			}
			if (at !== undefined) {
				const edges = firstMove && keyword ? state(at).keywordEdges : state(at).edges;
				edges[next] = (edges[next] ?? 0) + 1;
			}
			firstMove = false;
			state(next).visits++;
			if (!reached.has(next)) state(next).reached++;
			reached.add(next);
			if (at === 'pick') {
				const v = VARIANT_OF[m.text];
				shown.variants.add(v);
				shown.passes++;
				if (variant === undefined) (tally.variants[v] ??= { clients: 0, goalReached: 0 }).clients++;
				variant ??= v;
			}
			if (next === GOAL_STATE && variant !== undefined && !goal) {
				goal = true;
				tally.variants[variant].goalReached++;
			}
			if (next === 'human') {
				handedOff = true;
				tally.summary.handoffs++;
			}
			if (next === '__end') {
				ended = true;
				state(next).completed++;
				tally.summary.completed++;
			}
			at = next;
		}
	}
	if (ended || at === undefined) return;
	state(at).now++;
	if (handedOff) state(at).handedOff++;
	else {
		const bucket = liveBucket([writtenAt, stepAt ?? writtenAt], reading, client);
		state(at)[bucket]++;
		tally.summary[bucket]++;
	}
}
