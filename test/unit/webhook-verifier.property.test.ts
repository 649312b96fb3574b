import fc from 'fast-check';

import { parseEnvelope, signBody, verifySignature } from '../../runtime/webhooks';
import { referenceSignature as sign } from '../helpers/deliveries';

const secretArb = fc.string({ minLength: 1, maxLength: 64 });
const bodyArb = fc.uint8Array({ minLength: 0, maxLength: 2048 });

describe('signature verifier (properties)', () => {
	it("matches GitHub's published HMAC vector", () => {
		const secret = "It's a Secret to Everybody";
		const expected = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';
		expect(signBody(secret, 'Hello, World!')).toBe(expected);
		expect(sign(secret, 'Hello, World!')).toBe(expected);
		expect(verifySignature(Buffer.from('Hello, World!'), expected, [secret])).toEqual({
			ok: true,
			secretIndex: 0,
		});
	});

	it('always accepts a freshly signed body', () => {
		fc.assert(
			fc.property(
				secretArb,
				bodyArb,
				(secret, body) => verifySignature(body, sign(secret, body), [secret]).ok,
			),
		);
	});

	it('rejects any change to the body', () => {
		fc.assert(
			fc.property(
				secretArb,
				bodyArb.filter((b) => b.length > 0),
				fc.nat(),
				fc.integer({ min: 1, max: 255 }),
				(secret, body, at, flip) => {
					const header = sign(secret, body);
					const changed = Uint8Array.from(body);
					changed[at % changed.length] ^= flip;
					return !verifySignature(changed, header, [secret]).ok;
				},
			),
		);
		fc.assert(
			fc.property(
				secretArb,
				bodyArb,
				fc.uint8Array({ minLength: 1, maxLength: 8 }),
				(secret, body, extra) => {
					const header = sign(secret, body);
					return !verifySignature(Buffer.concat([body, extra]), header, [secret]).ok;
				},
			),
		);
	});

	it('rejects any change to the signature', () => {
		fc.assert(
			fc.property(
				secretArb,
				bodyArb,
				fc.nat({ max: 63 }),
				fc.constantFrom(...'0123456789abcdef'),
				(secret, body, at, digit) => {
					const header = sign(secret, body);
					const hex = header.slice(7);
					fc.pre(hex[at] !== digit);
					const changed = `sha256=${hex.slice(0, at)}${digit}${hex.slice(at + 1)}`;
					return !verifySignature(body, changed, [secret]).ok;
				},
			),
		);
	});

	it('rejects a signature made with another secret, and accepts any of the configured ones', () => {
		fc.assert(
			fc.property(secretArb, secretArb, bodyArb, (a, b, body) => {
				fc.pre(a !== b);
				return (
					!verifySignature(body, sign(a, body), [b]).ok &&
					verifySignature(body, sign(a, body), [b, a]).ok
				);
			}),
		);
	});

	it('never throws, whatever the header and body', () => {
		fc.assert(
			fc.property(
				fc.oneof(fc.string(), fc.constant(undefined), fc.array(fc.string())),
				bodyArb,
				fc.array(secretArb, { maxLength: 3 }),
				(header, body, secrets) => {
					const result = verifySignature(body, header, secrets);
					return result.ok === false || secrets.length > 0;
				},
			),
		);
	});
});

describe('envelope parser (properties)', () => {
	const event = fc.constantFrom('order.created', 'client.tagged', 'bot.error', 'webhook.test');
	it('accepts every well-formed envelope, whatever its data', () => {
		fc.assert(
			fc.property(
				event,
				fc.dictionary(fc.string(), fc.jsonValue()),
				fc.string({ minLength: 1 }),
				fc.date({ noInvalidDate: true }),
				(ev, data, webhookId, at) => {
					const parsed = parseEnvelope(
						JSON.stringify({ event: ev, data, webhook_id: webhookId, timestamp: at.toISOString() }),
					);
					return parsed.ok && parsed.envelope.event === ev;
				},
			),
		);
	});

	it('never throws on arbitrary bytes or JSON, and explains what it refuses', () => {
		fc.assert(
			fc.property(fc.oneof(fc.uint8Array({ maxLength: 512 }), fc.json(), fc.string()), (input) => {
				const parsed = parseEnvelope(input);
				return parsed.ok || (typeof parsed.error === 'string' && parsed.error.length > 0);
			}),
		);
	});

	it('refuses a message.received without the Message fields', () => {
		const parsed = parseEnvelope(
			JSON.stringify({
				event: 'message.received',
				data: { text: 'x' },
				webhook_id: 'w',
				timestamp: '2026-01-01T00:00:00Z',
			}),
		);
		expect(parsed).toEqual({
			ok: false,
			error: 'data.message_id is required; data.client_id is required; data.bot_id is required',
		});
	});
});
