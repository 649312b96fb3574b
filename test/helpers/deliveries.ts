import { createHmac, timingSafeEqual } from 'node:crypto';

import type { Received } from './receiver';

/**
 * The signature of A30 computed from the spec alone: `sha256=` and the lower-case hex
 * HMAC-SHA256 of the exact body bytes. It stands apart from the product's verifier and the
 * emulator's signer so that tests of either compare them with an independent reference.
 */
export function referenceSignature(secret: string, body: string | Uint8Array): string {
	return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** The receiver's check of A30: the delivery's X-Service-Signature is the reference signature of its raw bytes. */
export function signatureValid(secret: string, received: Received): boolean {
	const header = received.headers['x-service-signature'];
	if (typeof header !== 'string') return false;
	const expected = Buffer.from(referenceSignature(secret, received.raw));
	const got = Buffer.from(header);
	return expected.length === got.length && timingSafeEqual(expected, got);
}

export type SignedDelivery = { body: string; headers: Record<string, string> };

/** A webhook delivery as the service sends it: the event's body and its headers, signed by the reference (A30). */
export function signedDelivery(
	secret: string,
	event: string,
	data: Record<string, unknown>,
	deliveryId: string,
	webhookId = 'wh_test',
): SignedDelivery {
	const body = JSON.stringify({
		event,
		data,
		webhook_id: webhookId,
		timestamp: new Date().toISOString(),
	});
	return {
		body,
		headers: {
			'Content-Type': 'application/json',
			'X-Service-Event': event,
			'X-Service-Delivery-ID': deliveryId,
			'X-Service-Signature': referenceSignature(secret, body),
			'User-Agent': 'Service-Webhooks/1.0',
		},
	};
}
