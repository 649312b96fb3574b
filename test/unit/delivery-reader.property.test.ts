import fc from 'fast-check';

import { MemoryStore } from '../../runtime/stores';
import {
	DELIVERY_LIMITS,
	nestedDeeperThan,
	receiveDelivery,
	type IntakeOptions,
} from '../../runtime/webhooks';
import { referenceSignature } from '../helpers/deliveries';

const SECRET = ['whsec', 'reader'].join('_');

function options(store: MemoryStore, batch: boolean): IntakeOptions {
	return {
		secrets: [SECRET],
		events: ['*'],
		listening: false,
		passTestEvents: true,
		scope: 'wf',
		recordMessages: true,
		batch,
		store: async () => store,
	};
}

/** A body nested `depth` levels inside `data`, as arrays and objects in turn. */
function nested(depth: number): string {
	let inner = '"x"';
	for (let i = 0; i < depth; i++) inner = i % 2 ? `{"k":${inner}}` : `[${inner}]`;
	return `{"event":"order.created","data":{"order_id":"o1","deep":${inner}},"webhook_id":"w","timestamp":"2026-11-26T10:00:00Z"}`;
}

const contentTypes = fc.constantFrom(
	undefined,
	'application/json',
	'application/json; charset=utf-8',
	'Application/JSON',
	'application/vnd.service+json',
	'text/plain',
	'application/x-www-form-urlencoded',
	'',
);

describe('the delivery reader (properties): any bytes are answered or refused, never thrown', () => {
	it('refuses or accepts arbitrary bytes, signed or not, with any headers', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.oneof(fc.uint8Array({ maxLength: 2048 }), fc.json().map((s) => Buffer.from(s))),
				fc.boolean(),
				contentTypes,
				fc.option(fc.string({ maxLength: 40 })),
				fc.boolean(),
				async (raw, signed, contentType, deliveryId, batch) => {
					const headers: Record<string, string | undefined> = {
						'content-type': contentType,
						'x-service-signature': signed ? referenceSignature(SECRET, raw) : 'sha256=00',
						'x-service-delivery-id': deliveryId ?? undefined,
					};
					const outcome = await receiveDelivery(
						{ raw, headers },
						options(new MemoryStore(), batch),
					);
					if (outcome.kind === 'rejected') {
						expect([400, 401, 413, 415]).toContain(outcome.status);
						expect(outcome.body.message.length).toBeGreaterThan(10);
					} else expect(outcome.status).toBe(200);
				},
			),
			{ numRuns: 400 },
		);
	});

	it('answers validly signed JSON of any depth within 100 ms: stored up to the bound, 400 beyond', async () => {
		await fc.assert(
			fc.asyncProperty(fc.integer({ min: 0, max: 200_000 }), fc.boolean(), async (depth, batch) => {
				const raw = Buffer.from(nested(depth));
				const started = performance.now();
				const outcome = await receiveDelivery(
					{
						raw,
						headers: {
							'content-type': 'application/json',
							'x-service-signature': referenceSignature(SECRET, raw),
							'x-service-delivery-id': `d${depth}`,
						},
					},
					options(new MemoryStore(), batch),
				);
				expect(performance.now() - started).toBeLessThan(100);
				if (depth + 2 > DELIVERY_LIMITS.maxDepth) {
					expect(outcome.kind).toBe('rejected');
					expect(outcome.status).toBe(400);
					expect(outcome.body).toMatchObject({ message: expect.stringMatching(/nested deeper/) });
				} else if (outcome.kind === 'accepted') await outcome.items();
				else throw new Error(`refused at depth ${depth}: ${JSON.stringify(outcome.body)}`);
			}),
			{ numRuns: 60 },
		);
	});

	it('counts nesting outside strings only, escapes included', () => {
		fc.assert(
			fc.property(fc.jsonValue({ maxDepth: 8 }), (value) => {
				const text = JSON.stringify(value);
				const depth = (v: unknown): number =>
					v !== null && typeof v === 'object'
						? 1 + Math.max(0, ...Object.values(v as object).map(depth))
						: 0;
				const d = depth(value);
				const bytes = Buffer.from(text);
				return !nestedDeeperThan(bytes, d) && (d === 0 || nestedDeeperThan(bytes, d - 1));
			}),
		);
	});

	it('refuses a body that says it is not JSON with 415, and reads one with no Content-Type', async () => {
		const raw = Buffer.from(nested(1));
		const headers = {
			'x-service-signature': referenceSignature(SECRET, raw),
			'x-service-delivery-id': 'd1',
		};
		const store = new MemoryStore();
		const plain = await receiveDelivery(
			{ raw, headers: { ...headers, 'content-type': 'text/plain' } },
			options(store, false),
		);
		expect(plain).toMatchObject({
			status: 415,
			body: { message: 'Rejected: the Content-Type is text/plain, not application/json' },
		});
		const none = await receiveDelivery({ raw, headers }, options(store, false));
		expect(none.kind).toBe('accepted');
	});
});
