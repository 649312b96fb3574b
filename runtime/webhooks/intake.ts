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
import { parseEnvelope, type Envelope } from './envelope';
import { TEST_EVENT } from './events';
import { verifySignature } from './signature';

/**
 * The delivery policy of the trigger, without n8n: what is rejected, ignored, deduplicated and
 * recorded, and what the service is answered. The node passes the request in and writes the
 * answer out.
 */

export interface Delivery {
	/** The exact bytes that were signed. */
	raw: Uint8Array;
	headers: Record<string, string | string[] | undefined>;
}

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
}

/** What to answer, and what (if anything) the workflow gets. */
export type IntakeOutcome =
	| { kind: 'rejected'; status: 400 | 401; body: { success: false; message: string } }
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

export type AckBody = {
	received: true;
	started: boolean;
	reason?: 'test event' | 'event not selected' | 'bot not selected' | 'already received';
	delivery_id?: string;
};

const WHY: Record<'missing' | 'malformed' | 'mismatch', string> = {
	missing: 'no X-Service-Signature header',
	malformed: 'a malformed X-Service-Signature',
	mismatch: 'a signature that does not match',
};

export async function receiveDelivery(
	delivery: Delivery,
	options: IntakeOptions,
): Promise<IntakeOutcome> {
	const rejected = (status: 400 | 401, message: string): IntakeOutcome => ({
		kind: 'rejected',
		status,
		body: { success: false, message: `Rejected: ${message}` },
	});
	if (options.secrets.length > 0) {
		const check = verifySignature(
			delivery.raw,
			delivery.headers['x-service-signature'],
			options.secrets,
		);
		if (!check.ok) return rejected(401, `the request has ${WHY[check.reason]}`);
	}
	const parsed = parseEnvelope(delivery.raw);
	if (!parsed.ok) return rejected(400, parsed.error);
	const { envelope } = parsed;
	const deliveryId = header(delivery.headers['x-service-delivery-id']);
	if (!deliveryId) return rejected(400, 'the X-Service-Delivery-ID header is missing');
	const eventHeader = header(delivery.headers['x-service-event']);
	if (eventHeader && eventHeader !== envelope.event)
		return rejected(400, `X-Service-Event says ${eventHeader} but the body says ${envelope.event}`);

	const ignored = (reason: NonNullable<AckBody['reason']>): IntakeOutcome => ({
		kind: 'ignored',
		status: 200,
		body: { received: true, started: false, reason, delivery_id: deliveryId },
	});
	const isTest = envelope.event === TEST_EVENT;
	if (isTest ? !options.passTestEvents : !selected(envelope, options))
		return ignored(isTest ? 'test event' : 'event not selected');
	if (!forSelectedBot(envelope, options.bots)) return ignored('bot not selected');
	const item = deliveryItem(envelope, deliveryId, delivery, options);
	const accepted = (answerFirst: boolean, items: () => Promise<object[]>): IntakeOutcome => ({
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

function header(value: string | string[] | undefined): string | undefined {
	const v = Array.isArray(value) ? value[0] : value;
	return v?.trim() || undefined;
}
