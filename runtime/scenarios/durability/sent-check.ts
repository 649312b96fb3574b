import { msOf } from '../../api/clock';
import type { RequestGuard } from '../../api/guard';

/**
 * Whether a reply in doubt reached the client, read from the client's message history: what lets
 * a reply whose worker died between sending and recording be settled instead of reported unknown.
 * The history's fields are not shown by the spec (A24); the client reads them tolerantly, and
 * anything this cannot be sure of leaves the reply unknown: never sent twice.
 */

/** A message of the history, as the API client reads it (`messageSchema`). */
export interface HistoryItem {
	message_id?: string;
	bot_id?: string;
	direction?: string;
	text?: string;
	timestamp?: string;
}

/**
 * Reads a client's history page after page, in the service's order (`MessagingBotClient` has one).
 * `guard`: a read that decides a send is fenced like the send (guard.ts).
 */
export type HistoryRead = (
	clientId: string,
	options?: { max?: number; pageSize?: number; guard?: RequestGuard },
) => AsyncIterable<HistoryItem>;

export type SentCheck = { sent: true; sentId?: string } | { sent: false } | { unsure: string };

/** The most history read for one check: 10 requests of the service's largest page. */
const HISTORY_READ_MAX = 10_000;

/**
 * How far the service's clock may be behind ours: a message stamped up to this long before the
 * lease was taken still counts as this reply. Erring this way can only take an earlier identical
 * reply for this one (the reply is then not sent), never send one twice.
 */
const CLOCK_SKEW_MS = 60_000;

/**
 * Looks for `text` sent by `botId` to the client since `since` (our clock, ms). Sent: found. Not
 * sent: the whole history was read and holds no such message from then on. Unsure: the history
 * is longer than the read allows, or an identical text carries no time to tell it by.
 */
export async function checkSent(
	read: HistoryRead,
	reply: { botId: string; clientId: string; text: string; since: number },
	guard?: RequestGuard,
): Promise<SentCheck> {
	const from = reply.since - CLOCK_SKEW_MS;
	let seen = 0;
	let undated = false;
	const max = HISTORY_READ_MAX + 1;
	for await (const item of read(reply.clientId, guard ? { max, guard } : { max })) {
		if (++seen > HISTORY_READ_MAX)
			return { unsure: `the client's history is longer than ${HISTORY_READ_MAX} messages` };
		if (item.text !== reply.text || item.direction === 'inbound') continue;
		if (item.bot_id !== undefined && item.bot_id !== reply.botId) continue;
		const at = msOf(item.timestamp);
		if (Number.isNaN(at)) undated = true;
		else if (at >= from)
			return { sent: true, ...(item.message_id ? { sentId: item.message_id } : {}) };
	}
	if (undated) return { unsure: "the client's history shows this text without a time" };
	return { sent: false };
}
