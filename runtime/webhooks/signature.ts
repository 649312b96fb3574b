import { createHmac, timingSafeEqual } from 'node:crypto';

export type SignatureCheck =
	| { ok: true; secretIndex: number }
	| { ok: false; reason: 'missing' | 'malformed' | 'mismatch' };

const HEADER = /^sha256=([0-9a-fA-F]{64})$/;

/** `sha256=` and the lower-case hex HMAC-SHA256 of the exact body bytes (A30). */
export function signBody(secret: string, body: Uint8Array | string): string {
	return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * Checks X-Service-Signature over the raw request bytes against each secret in turn (the current
 * one and, while rotating, the previous), comparing digests in constant time. Never throws.
 */
export function verifySignature(
	rawBody: Uint8Array,
	header: string | string[] | undefined,
	secrets: readonly string[],
): SignatureCheck {
	const value = Array.isArray(header) ? header[0] : header;
	if (value === undefined || value === '') return { ok: false, reason: 'missing' };
	const match = HEADER.exec(value.trim());
	if (!match) return { ok: false, reason: 'malformed' };
	const given = Buffer.from(match[1], 'hex');
	for (let i = 0; i < secrets.length; i++) {
		const expected = createHmac('sha256', secrets[i]).update(rawBody).digest();
		if (timingSafeEqual(expected, given)) return { ok: true, secretIndex: i };
	}
	return { ok: false, reason: 'mismatch' };
}
