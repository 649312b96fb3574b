import { getOrCreate } from '../../per-process';

/**
 * When an accepted message may be applied. A message can be applied before an earlier-written
 * message of the same client only while that one is still on its way, which happens only when
 * deliveries overtake each other. So, as TCP's RACK does with its reordering window (RFC 8985), a
 * message is held only as long as deliveries have lately been overtaken: by as much as the
 * latest-arriving of them came after a delivery written later than it (any client's), and never
 * longer than the reorder window. While deliveries arrive in the order written (an idle n8n),
 * nothing waits; when they overtake each other (a burst through n8n's webhook URL), the holds
 * grow to the observed extent. Until a few arrivals are known (after a start), a message that
 * came alone waits a quarter of the window and one among others the whole window. The fixed mode
 * holds every message for the whole window.
 */

/** `adaptive`: hold for the recent spread of delays, at most the window; `fixed`: the window. */
export type ReorderMode = 'adaptive' | 'fixed';

export interface ReorderSettings {
	mode: ReorderMode;
	/** The longest a message waits (adaptive), or how long every message waits (fixed). */
	windowMs: number;
}

/** What the policy reads of an inbox entry. */
export interface Held {
	/** The message's id: each one is counted once. */
	id: string;
	/** When it was accepted (ms, the store's clock). */
	at: number;
	/** Its own time (ms, the service's clock), when it has one. */
	sentAt?: number;
}

/** Arrivals older than this count no more once newer ones are known: a past burst stops holding. */
const SAMPLE_TTL_MS = 30_000;
/** The arrivals remembered. */
const SAMPLES = 32;
/**
 * Fewer arrivals than this tell nothing: until an inbox has seen as many (after a start), a
 * message that came among others waits the whole window; a quiet bot keeps its last ones however
 * old.
 */
const MIN_SAMPLES = 8;
/**
 * Until a few arrivals are known, the share of the window a message that came alone waits, as
 * RACK (RFC 8985) sets its reordering window to a quarter of the least round trip. Long enough for
 * a delivery of the same client sent with it to be accepted first on an idle n8n.
 */
const ALONE_SHARE = 0.25;
/** The service's times are whole milliseconds: two messages a millisecond apart may share one. */
const MARGIN_MS = 5;

type Arrival = { sentAt: number; at: number; seenAt: number };

/**
 * The recent arrivals of one inbox: each message's own time (the service's clock) and when it was
 * accepted (ours). Only the order of times on each clock is compared, never one clock with the
 * other. Kept in memory: losing it (a restart) costs whole-window holds until enough new
 * deliveries are seen.
 */
export class ArrivalHistory {
	private readonly arrivals = new Map<string, Arrival>();

	observe(id: string, sentAt: number, at: number, now: number): void {
		if (this.arrivals.has(id)) return;
		this.arrivals.set(id, { sentAt, at, seenAt: now });
		if (this.arrivals.size > SAMPLES)
			this.arrivals.delete(this.arrivals.keys().next().value as string);
	}

	/**
	 * The most a recent delivery arrived after one written later than it (0: none was overtaken);
	 * undefined while too few were seen to tell.
	 */
	overtake(now: number): number | undefined {
		if (this.arrivals.size < MIN_SAMPLES) return undefined;
		const all = [...this.arrivals.values()];
		const recent = all.filter((a) => a.seenAt >= now - SAMPLE_TTL_MS);
		const counted = recent.length >= MIN_SAMPLES ? recent : all.slice(-MIN_SAMPLES);
		let most = 0;
		for (const earlier of counted)
			for (const later of counted)
				if (earlier.sentAt < later.sentAt && earlier.at > later.at)
					most = Math.max(most, earlier.at - later.at);
		return most;
	}

	/** No other arrival was accepted within `windowMs` of this one, before or after it. */
	alone(id: string, at: number, windowMs: number): boolean {
		for (const [other, arrival] of this.arrivals)
			if (other !== id && Math.abs(arrival.at - at) < windowMs) return false;
		return true;
	}
}

/**
 * How long (ms) the next message in the client's order must still wait before it is applied;
 * 0: at once. Its own arrival is counted first: a message that came after later-written ones
 * raises the bound for those behind it.
 */
export function holdMs(
	entry: Held,
	settings: ReorderSettings,
	history: ArrivalHistory,
	now: number,
): number {
	const latest = entry.at + settings.windowMs;
	if (settings.mode === 'fixed' || settings.windowMs <= 0) return Math.max(0, latest - now);
	// Without its own time a message cannot be placed among the others: nothing to wait for.
	if (entry.sentAt === undefined) return 0;
	history.observe(entry.id, entry.sentAt, entry.at, now);
	const overtake = history.overtake(now);
	// Too few seen to tell (after a start): one among others (a burst, as after a restart) waits
	// the window; one that came alone (an idle bot) a quarter of it, then is looked at again.
	if (overtake === undefined) {
		const alone = history.alone(entry.id, entry.at, settings.windowMs);
		return Math.max(0, (alone ? entry.at + settings.windowMs * ALONE_SHARE : latest) - now);
	}
	if (overtake === 0) return 0;
	// An earlier-written message, overtaken as far as any lately, arrives before this moment.
	return Math.max(0, Math.min(latest, entry.at + overtake + MARGIN_MS) - now);
}

const histories = new Map<string, ArrivalHistory>();
/** Namespaces a process keeps arrivals for: one forgotten beyond that starts over, as after a start. */
const HISTORIES_KEPT = 256;

/** The arrivals of one inbox namespace, shared by every engine of this process that applies it. */
export function arrivalHistoryOf(namespace: string): ArrivalHistory {
	return getOrCreate(histories, namespace, () => new ArrivalHistory(), HISTORIES_KEPT);
}
