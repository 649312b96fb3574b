import {
	encodeInbound,
	inboxClaims,
	inboxNamespace,
	inboxQueue,
	type MessageReceived,
} from '../scenarios/engine/inbox';
import type { StateStore } from '../stores/types';
import { claimDelivery, DEFAULT_DEDUPE_TTL_MS } from './dedupe';
import { queueForExecution, takeBatch } from './dispatch';
import type { Envelope } from './envelope';
import { TEST_EVENT } from './events';
import {
	DELIVERY_LIMITS,
	readDelivery,
	type Delivery,
	type DeliveryLimits,
	type Refusal,
} from './reader';

/**
 * The delivery policy of the trigger, without n8n: what is rejected, ignored, deduplicated and
 * recorded, and what the service is answered. The node passes the request in and writes the
 * answer out.
 */

export interface IntakeOptions {
	/** The signing secrets (current, previous); none: deliveries are accepted unverified. */
	secrets: string[];
	/** Event types that start the workflow; "*" for all. */
	events: string[];
	/**
	 * The bots whose events start the workflow; empty or absent for all. An event that names
	 * another bot (its `bot_id`) is acknowledged and ignored; events of no bot (orders, clients)
	 * pass, since the service's subscriptions are per account.
	 */
	bots?: readonly string[];
	/** Listening in the editor: nothing is recorded. */
	listening: boolean;
	/**
	 * The test event the service sends when a subscription is saved starts the workflow; off, it is
	 * acknowledged, and listening in the editor goes on for the next event.
	 */
	passTestEvents: boolean;
	/** Keeps the workflow's deliveries apart from other workflows' in the store. */
	scope: string;
	/** Opened only when something must be recorded. */
	store: () => Promise<StateStore>;
	/**
	 * A Scenario node follows: a message is put in its conversation's inbox before the answer, so
	 * the answer can go at once and the message survives whatever happens to the execution.
	 */
	recordMessages: boolean;
	/** The scope of that Scenario node's conversations (default: `scope`). */
	inboxScope?: string;
	/** Batch deliveries under load: an execution carries every delivery accepted and not yet taken. */
	batch: boolean;
	/** Add the request headers, or the raw body, to the item. */
	includeHeaders?: boolean;
	includeRawBody?: boolean;
	ttlMs?: number;
	/** Size and nesting bounds of a body (default DELIVERY_LIMITS). */
	limits?: DeliveryLimits;
}

/** What to answer, and what (if anything) the workflow gets. */
export type IntakeOutcome =
	| Refusal
	| { kind: 'ignored'; status: 200; body: AckBody }
	| {
			kind: 'accepted';
			status: 200;
			body: AckBody;
			/**
			 * Kept in the store already: the service may be answered before the execution starts.
			 * Otherwise n8n answers once it has created the execution.
			 */
			answerFirst: boolean;
			/** The items to start the workflow with (none: another execution carries this one). */
			items: () => Promise<object[]>;
	  };

/** What a delivery that was read gets. */
export type Admitted = Exclude<IntakeOutcome, Refusal>;

export type AckBody = {
	received: true;
	started: boolean;
	reason?: 'test event' | 'event not selected' | 'bot not selected' | 'already received';
	delivery_id?: string;
};

/** Reads the delivery (reader.ts), then admits it: filters, redeliveries, the durable record. */
export async function receiveDelivery(
	delivery: Delivery,
	options: IntakeOptions,
): Promise<IntakeOutcome> {
	const read = readDelivery(delivery, options.secrets, options.limits ?? DELIVERY_LIMITS);
	return read.kind === 'rejected' ? read : await admitDelivery(read, delivery, options);
}

/** What a delivery that was read (and verified) gets: ignored, or recorded and accepted. */
export async function admitDelivery(
	read: { envelope: Envelope; deliveryId: string },
	delivery: Delivery,
	options: IntakeOptions,
): Promise<Admitted> {
	const { envelope, deliveryId } = read;
	const ignored = (reason: NonNullable<AckBody['reason']>): Admitted => ({
		kind: 'ignored',
		status: 200,
		body: { received: true, started: false, reason, delivery_id: deliveryId },
	});
	const isTest = envelope.event === TEST_EVENT;
	if (isTest ? !options.passTestEvents : !selected(envelope, options))
		return ignored(isTest ? 'test event' : 'event not selected');
	if (!forSelectedBot(envelope, options.bots)) return ignored('bot not selected');
	const item = deliveryItem(envelope, deliveryId, delivery, options);
	const accepted = (answerFirst: boolean, items: () => Promise<object[]>): Admitted => ({
		kind: 'accepted',
		status: 200,
		body: { received: true, started: true, delivery_id: deliveryId },
		answerFirst,
		items,
	});
	// In the editor, every event shows; only production deliveries are recorded.
	if (options.listening) return accepted(false, async () => [item]);
	const store = await options.store();
	const kept = await record(store, envelope, deliveryId, item, options);
	if (kept === false) return ignored('already received');
	if (kept.dispatchSeq !== undefined) {
		return accepted(true, async () => await takeBatch(store, options.scope));
	}
	return accepted(kept.inInbox, async () => [item]);
}

function selected(envelope: Envelope, options: IntakeOptions): boolean {
	return options.events.includes('*') || options.events.includes(envelope.event);
}

function forSelectedBot(envelope: Envelope, bots: readonly string[] | undefined): boolean {
	const bot = envelope.data.bot_id;
	if (!bots || bots.length === 0 || typeof bot !== 'string') return true;
	return bots.includes(bot);
}

/**
 * Records the delivery: its claims (48 hours) and, for a message bound for a Scenario node, its
 * place in the conversation's inbox, in one atomic write; with batching, its item in the dispatch
 * queue. False for a redelivery.
 */
async function record(
	store: StateStore,
	envelope: Envelope,
	deliveryId: string,
	item: object,
	options: IntakeOptions,
): Promise<false | { inInbox: boolean; dispatchSeq?: number }> {
	const ttl = options.ttlMs ?? DEFAULT_DEDUPE_TTL_MS;
	const isMessage = envelope.event === 'message.received';
	const messageId = isMessage ? String(envelope.data.message_id) : undefined;
	const claims = messageId === undefined ? [`d:${deliveryId}`] : inboxClaims(messageId, deliveryId);
	let inInbox = false;
	if (isMessage && options.recordMessages) {
		const message = envelope.data as MessageReceived;
		const seq = await store.enqueue(
			inboxNamespace(options.inboxScope ?? options.scope),
			inboxQueue(message),
			claims,
			encodeInbound(message),
			ttl,
		);
		if (seq === null) return false;
		inInbox = true;
	}
	if (options.batch) {
		// A message already kept in its inbox made its claims there.
		const seq = await queueForExecution(store, options.scope, item, inInbox ? [] : claims, ttl);
		return seq === null ? false : { inInbox, dispatchSeq: seq };
	}
	if (inInbox) return { inInbox };
	return (await claimDelivery(store, options.scope, claims, ttl)) ? { inInbox: false } : false;
}

/** The event's data as the service sent it, and the delivery's own fields beside it. */
function deliveryItem(
	envelope: Envelope,
	deliveryId: string,
	delivery: Delivery,
	options: IntakeOptions,
): Record<string, unknown> {
	const data = envelope.data;
	return {
		...data,
		event: envelope.event,
		webhook_id: envelope.webhook_id,
		delivery_id: deliveryId,
		// The event's own time stays as sent; the delivery's is beside it.
		timestamp: data.timestamp ?? envelope.timestamp,
		delivered_at: envelope.timestamp,
		is_test: envelope.event === TEST_EVENT,
		signature_verified: options.secrets.length > 0,
		...(options.includeHeaders ? { headers: delivery.headers } : {}),
		...(options.includeRawBody ? { raw_body: Buffer.from(delivery.raw).toString('utf8') } : {}),
	};
}
