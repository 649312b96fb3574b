import {
	encodeInbound,
	inboxClaims,
	inboxNamespace,
	inboxQueue,
	type MessageReceived,
} from '../scenarios/inbox';
import type { StateStore } from '../stores/types';
import { DEFAULT_DEDUPE_TTL_MS, Deduplicator } from './dedupe';
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
	/** Listening in the editor: every event shows, the test event included; nothing is recorded. */
	listening: boolean;
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
			envelope: Envelope;
			deliveryId: string;
			/** Recorded in the conversation inbox: answering before the execution starts is safe. */
			recorded: boolean;
	  };

export type AckBody = {
	received: true;
	started: boolean;
	reason?: 'test event' | 'event not selected' | 'already received';
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
	if (isTest ? !(options.listening || options.passTestEvents) : !selected(envelope, options))
		return ignored(isTest ? 'test event' : 'event not selected');
	// In the editor, every event shows; only production deliveries are recorded.
	let recorded = false;
	if (!options.listening) {
		const fresh = await record(envelope, deliveryId, options);
		if (!fresh) return ignored('already received');
		recorded = fresh === 'recorded';
	}
	return {
		kind: 'accepted',
		status: 200,
		body: { received: true, started: true, delivery_id: deliveryId },
		envelope,
		deliveryId,
		recorded,
	};
}

function selected(envelope: Envelope, options: IntakeOptions): boolean {
	return options.events.includes('*') || options.events.includes(envelope.event);
}

/**
 * Claims the delivery (and a message's id) for 48 hours. A message bound for a Scenario node is
 * appended to its conversation's inbox in the same atomic write.
 */
async function record(
	envelope: Envelope,
	deliveryId: string,
	options: IntakeOptions,
): Promise<false | 'claimed' | 'recorded'> {
	const store = await options.store();
	const ttl = options.ttlMs ?? DEFAULT_DEDUPE_TTL_MS;
	if (envelope.event === 'message.received' && options.recordMessages) {
		const message = envelope.data as MessageReceived;
		const seq = await store.enqueue(
			inboxNamespace(options.scope),
			inboxQueue(message),
			inboxClaims(message.message_id, deliveryId),
			encodeInbound(message),
			ttl,
		);
		return seq === null ? false : 'recorded';
	}
	const messageId =
		envelope.event === 'message.received' ? String(envelope.data.message_id) : undefined;
	const first = await new Deduplicator(store, options.scope, ttl).firstSeen(deliveryId, messageId);
	return first ? 'claimed' : false;
}

function header(value: string | string[] | undefined): string | undefined {
	const v = Array.isArray(value) ? value[0] : value;
	return v?.trim() || undefined;
}
