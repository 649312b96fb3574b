import { parseEnvelope, type Envelope } from './envelope';
import { verifySignature } from './signature';

/**
 * The one reading of a delivery both triggers share: media type, size, signature, then a JSON
 * parse bounded in depth. Cheap checks first, so a refused request costs next to nothing; never
 * throws, whatever the bytes.
 */

export interface Delivery {
	/** The exact bytes that were signed. */
	raw: Uint8Array;
	headers: Record<string, string | string[] | undefined>;
}

export interface DeliveryLimits {
	/** Bodies above this many bytes are refused with 413 (the service's deliveries are small). */
	maxBytes: number;
	/** JSON nested deeper than this is refused with 400 (the service's deliveries nest ~4 deep). */
	maxDepth: number;
}

export const DELIVERY_LIMITS: DeliveryLimits = { maxBytes: 1_048_576, maxDepth: 64 };

export type Refusal = {
	kind: 'rejected';
	status: 400 | 401 | 413 | 415;
	body: { success: false; message: string };
};

export type ReadDelivery =
	| Refusal
	| { kind: 'read'; envelope: Envelope; deliveryId: string; signed: boolean };

const WHY: Record<'missing' | 'malformed' | 'mismatch', string> = {
	missing: 'no X-Service-Signature header',
	malformed: 'a malformed X-Service-Signature',
	mismatch: 'a signature that does not match',
};

export function refusal(status: Refusal['status'], message: string): Refusal {
	return { kind: 'rejected', status, body: { success: false, message: `Rejected: ${message}` } };
}

/** Reads a delivery as the service sends it (docs/service-assumptions.md#a41 on the media type). */
export function readDelivery(
	delivery: Delivery,
	secrets: readonly string[],
	limits: DeliveryLimits = DELIVERY_LIMITS,
): ReadDelivery {
	const media = mediaTypeProblem(delivery.headers['content-type']);
	if (media) return refusal(415, media);
	if (delivery.raw.byteLength > limits.maxBytes)
		return refusal(413, `the body is larger than ${limits.maxBytes} bytes`);
	if (secrets.length > 0) {
		const check = verifySignature(delivery.raw, delivery.headers['x-service-signature'], secrets);
		if (!check.ok) return refusal(401, `the request has ${WHY[check.reason]}`);
	}
	if (nestedDeeperThan(delivery.raw, limits.maxDepth))
		return refusal(400, `the body's JSON is nested deeper than ${limits.maxDepth} levels`);
	const parsed = parseEnvelope(delivery.raw);
	if (!parsed.ok) return refusal(400, parsed.error);
	const deliveryId = header(delivery.headers['x-service-delivery-id']);
	if (!deliveryId) return refusal(400, 'the X-Service-Delivery-ID header is missing');
	const eventHeader = header(delivery.headers['x-service-event']);
	if (eventHeader && eventHeader !== parsed.envelope.event)
		return refusal(
			400,
			`X-Service-Event says ${eventHeader} but the body says ${parsed.envelope.event}`,
		);
	return { kind: 'read', envelope: parsed.envelope, deliveryId, signed: secrets.length > 0 };
}

/**
 * Deliveries are JSON (docs/service-assumptions.md#a41): `application/json` or a `+json` type, any parameters; a request with
 * no Content-Type is read as JSON (the signature, not the header, proves who sent it). Null: fine.
 */
export function mediaTypeProblem(value: string | string[] | undefined): string | null {
	const given = (Array.isArray(value) ? value[0] : value)?.split(';')[0].trim().toLowerCase();
	if (!given) return null;
	if (given === 'application/json' || /^application\/[\w.+-]+\+json$/.test(given)) return null;
	return `the Content-Type is ${given.slice(0, 100)}, not application/json`;
}

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether the bytes open more than `max` JSON objects or arrays inside one another, outside
 * strings. One pass, no allocation: checked before parsing, so a deep body never reaches
 * JSON.parse, zod or JSON.stringify (whose recursion it would overflow).
 */
export function nestedDeeperThan(bytes: Uint8Array, max: number): boolean {
	let depth = 0;
	let inString = false;
	for (let i = 0; i < bytes.length; i++) {
		const b = bytes[i];
		if (inString) {
			if (b === BACKSLASH) i++;
			else if (b === QUOTE) inString = false;
		} else if (b === QUOTE) inString = true;
		else if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
			if (++depth > max) return true;
		} else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) depth--;
	}
	return false;
}

function header(value: string | string[] | undefined): string | undefined {
	const v = Array.isArray(value) ? value[0] : value;
	return v?.trim() || undefined;
}
