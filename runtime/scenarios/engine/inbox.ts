import { msOf } from '../../api/clock';
import type { QueuedEntry } from '../../stores/types';
import { conversationKey } from '../durability/record';

/**
 * A conversation's inbox: the messages accepted for it and not yet applied, kept in the state
 * store under the conversation's key. The trigger appends a message there before it answers the
 * service (so an acknowledged message survives any crash); the engine applies the inbox one
 * message at a time, in the client's order.
 */

/** The `data` of a message.received event. */
export interface MessageReceived {
	message_id: string;
	client_id: string;
	bot_id: string;
	text: string;
	channel?: string;
	/** The message's own time (ISO 8601), as the service sent it. */
	timestamp?: string;
	/** Fields the scenario does not read, kept as the service sent them. */
	[field: string]: unknown;
}

export interface Inbound {
	message: MessageReceived;
	/** The order the trigger accepted it in. */
	seq: number;
	/** When it was accepted (ms). */
	at: number;
	/** The message's own time (ms), when it has a readable one. */
	sentAt?: number;
}

export function inboxNamespace(scope: string): string {
	return `inbox:${scope}`;
}

/** The claims an accepted message makes: its delivery (when known) and its message id. */
export function inboxClaims(messageId: string, deliveryId?: string): string[] {
	return [...(deliveryId ? [`d:${deliveryId}`] : []), `m:${messageId}`];
}

export function inboxQueue(message: Pick<MessageReceived, 'bot_id' | 'client_id'>): string {
	return conversationKey(message.bot_id, message.client_id);
}

export function encodeInbound(message: MessageReceived): string {
	return JSON.stringify(message);
}

export function decodeInbound(entry: QueuedEntry): Inbound {
	const message = JSON.parse(entry.value) as MessageReceived;
	const sentAt = msOf(message.timestamp);
	return {
		message,
		seq: entry.seq,
		at: entry.at,
		...(Number.isNaN(sentAt) ? {} : { sentAt }),
	};
}

/**
 * The message to apply next: the earliest by its own time (the order the client wrote in), the
 * order of acceptance breaking ties and standing in for a missing time.
 */
export function nextInOrder(entries: readonly Inbound[]): Inbound | undefined {
	let best: Inbound | undefined;
	for (const entry of entries) {
		if (!best || compare(entry, best) < 0) best = entry;
	}
	return best;
}

function compare(a: Inbound, b: Inbound): number {
	if (a.sentAt !== undefined && b.sentAt !== undefined && a.sentAt !== b.sentAt)
		return a.sentAt - b.sentAt;
	return a.seq - b.seq;
}

/** The event as the engine takes it: its ids non-empty, its text a text. */
export function checkEvent(event: MessageReceived): MessageReceived {
	for (const field of ['message_id', 'client_id', 'bot_id'] as const) {
		if (typeof event?.[field] !== 'string' || event[field] === '')
			throw new TypeError(`A message.received event needs a non-empty ${field}`);
	}
	return { ...event, text: typeof event.text === 'string' ? event.text : '' };
}
