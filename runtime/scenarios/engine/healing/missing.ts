import { msOf } from '../../../api/clock';
import type { ConversationRecord } from '../../durability/record';
import type { HistoryItem } from '../../durability/sent-check';
import type { MessageReceived } from '../inbox';

/**
 * What the client's message history shows that a conversation has not applied: the pure half of
 * healing (the reading and the inbox are `healer.ts`'s). The history is oldest first (A24), and an
 * inbound message is in it, with the event's id and time, before its first delivery is sent (A39).
 */

/** A history item as the API client reads it; the channel, when the service gives one. */
export type InboundItem = HistoryItem & { channel?: unknown };

export interface Missing {
	/** The client's messages to apply, in the history's order, as events (marked `healed`). */
	messages: MessageReceived[];
	/** Inbound messages after the last applied one it cannot place: no id, or no time. */
	unplaced: number;
	/** Inbound messages of this bot in the history, all told: none at all means it shows none. */
	inbound: number;
	/** The history cannot be placed against the conversation: nothing applied carries an id or time found there. */
	unplaceable?: string;
}

/**
 * What a healing places the history against: a conversation's record, or, for one with no
 * record yet (its first messages accepted by a process that died before applying them, or never
 * passed on by n8n), nothing applied and a time from which the client's messages are its own.
 */
export type Placement = Pick<
	ConversationRecord,
	'botId' | 'clientId' | 'handled' | 'lastInbound' | 'lastSentAt'
>;

/** A conversation with no record: every client message of its bot written from `since` on. */
export function newcomer(botId: string, clientId: string, since: number): Placement {
	return { botId, clientId, handled: [], lastSentAt: since };
}

const timeOf = (item: HistoryItem) => msOf(item.timestamp);

/**
 * The inbound messages of the conversation's bot written after the last one it applied, and not
 * among those it applied: found by the last applied message's id in the history, else by its time
 * (everything from that time on). Each needs an id (so a delivery of it later is a duplicate) and
 * a time (so it is applied in the client's order); one without is counted as unplaced.
 */
export function missingFrom(history: readonly InboundItem[], record: Placement): Missing {
	const inbound = history.filter(
		(item) =>
			item.direction === 'inbound' && (item.bot_id === undefined || item.bot_id === record.botId),
	);
	const found: Missing = { messages: [], unplaced: 0, inbound: inbound.length };
	const lastId = record.lastInbound?.id;
	const position = lastId === undefined ? -1 : inbound.findIndex((i) => i.message_id === lastId);
	const since = record.lastInbound?.at ?? record.lastSentAt;
	if (position < 0 && since === undefined) {
		found.unplaceable =
			"the history does not show the conversation's last message, and it carried no time";
		return found;
	}
	const handled = new Set(record.handled);
	for (const item of position >= 0 ? inbound.slice(position + 1) : inbound) {
		const at = timeOf(item);
		// Placed by time: what came before the last message applied was applied, or is late.
		if (position < 0 && !Number.isNaN(at) && at < (since as number)) continue;
		if (item.message_id !== undefined && handled.has(item.message_id)) continue;
		if (item.message_id === undefined || Number.isNaN(at)) {
			found.unplaced++;
			continue;
		}
		found.messages.push(asEvent(item, record, item.message_id));
	}
	return found;
}

function asEvent(item: InboundItem, record: Placement, id: string): MessageReceived {
	return {
		message_id: id,
		client_id: record.clientId,
		bot_id: record.botId,
		text: item.text ?? '',
		...(typeof item.channel === 'string' ? { channel: item.channel } : {}),
		...(item.timestamp === undefined ? {} : { timestamp: item.timestamp }),
		healed: true,
	};
}

/**
 * Whether the history has caught up with a message in hand: it shows the message itself, or an
 * inbound message written at its time or later. A service that lists a message a moment after
 * its delivery (the variant profile, A39) is read again until it has.
 */
export function showsMessage(
	history: readonly InboundItem[],
	message: Pick<MessageReceived, 'message_id' | 'timestamp'>,
): boolean {
	const at = msOf(message.timestamp);
	return history.some(
		(item) =>
			item.direction === 'inbound' &&
			(item.message_id === message.message_id || (!Number.isNaN(at) && timeOf(item) >= at)),
	);
}
