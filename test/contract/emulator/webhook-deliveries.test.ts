import { sign } from '../../emulator';
import { referenceSignature, signatureValid } from '../../helpers/deliveries';
import { admin, call } from '../../helpers/emulator';
import { Receiver } from '../../helpers/receiver';
import { hiFromAda } from './event-shapes';
import {
	ISO_UTC,
	SPEC_HEADERS,
	TRANSPORT_HEADERS,
	SECRET,
	bodyOf,
	header,
	subscribe,
	inbound,
	delivery,
	settle,
	useReceiver,
	usePromptEmulator,
} from './webhook-fixture';

// docs/service-assumptions.md#a29 (delivery id), #a30 (signed bytes); spec "Events" (headers, body, Message fields).
describe('emulator webhooks: what a delivery looks like', () => {
	const emulator = usePromptEmulator();
	const receiver = useReceiver(emulator);

	it('POSTs exactly the spec headers and a body of event, data, webhook_id and timestamp', async () => {
		const e = emulator();
		const saved = await subscribe(e, { url: receiver().url, secret: SECRET });
		receiver().received.length = 0;
		const sent = await admin<{ message: Record<string, unknown>; delivery_ids: string[] }>(
			e,
			'POST',
			'/inbound',
			{
				bot_id: 'bot_shop',
				client_id: 'cl_ada',
				text: 'hi',
			},
		);
		expect(sent.status).toBe(201);
		expect(sent.body.data.delivery_ids).toHaveLength(1);
		await settle(e);

		expect(receiver().received).toHaveLength(1);
		const [got] = receiver().received;
		const names = Object.keys(got.headers).filter((h) => !TRANSPORT_HEADERS.includes(h));
		expect(names.sort()).toEqual(SPEC_HEADERS);
		expect(header(got, 'content-type')).toBe('application/json');
		expect(header(got, 'x-service-event')).toBe('message.received');
		expect(header(got, 'x-service-signature')).toMatch(/^sha256=[0-9a-f]{64}$/);
		expect(header(got, 'x-service-delivery-id')).toBe(sent.body.data.delivery_ids[0]);
		expect(header(got, 'user-agent')).toBe('Service-Webhooks/1.0');

		const body = bodyOf(got);
		expect(Object.keys(body).sort()).toEqual(['data', 'event', 'timestamp', 'webhook_id']);
		expect(body.event).toBe('message.received');
		expect(body.webhook_id).toBe(saved.subscription.id);
		expect(body.timestamp).toMatch(ISO_UTC);
		expect(Object.keys(body.data).sort()).toEqual([
			'bot_id',
			'channel',
			'client_id',
			'message_id',
			'metadata',
			'text',
			'timestamp',
		]);
		expect(body.data).toEqual(hiFromAda());
		expect(typeof (body.data.metadata as Record<string, unknown>).has_attachments).toBe('boolean');
		expect(body.data).toEqual(sent.body.data.message);

		const recorded = await delivery(e, sent.body.data.delivery_ids[0]);
		expect(recorded).toMatchObject({ event: 'message.received', state: 'delivered', test: false });
		expect(recorded.attempts).toHaveLength(1);
		expect(recorded.attempts[0]).toMatchObject({
			kind: 'initial',
			status_code: 200,
			ok: true,
			error: null,
		});
	});

	it('signs the exact bytes sent, as an independent HMAC-SHA256 recomputes them', async () => {
		const e = emulator();
		await subscribe(e, { url: receiver().url, secret: SECRET });
		receiver().received.length = 0;
		const [id] = await inbound(e, 'héllo ✓ 👋 "quoted" \\ back');
		await settle(e);
		const [got] = receiver().received;
		const signature = header(got, 'x-service-signature');
		expect(signature).toBe(referenceSignature(SECRET, got.raw));
		expect(signatureValid(SECRET, got)).toBe(true);
		expect(bodyOf(got).data.text).toBe('héllo ✓ 👋 "quoted" \\ back');
		// The bytes matter, not the JSON value: re-serialised JSON or another key does not verify.
		const reserialised = Buffer.from(JSON.stringify(bodyOf(got), null, 2), 'utf8');
		expect(referenceSignature(SECRET, reserialised)).not.toBe(signature);
		expect(signatureValid('another-secret', got)).toBe(false);
		// What the emulator recorded is what went over the wire.
		const recorded = await delivery(e, id);
		expect(Buffer.from(recorded.attempts[0].request.body, 'utf8').equals(got.raw)).toBe(true);
	});

	it("gives GitHub's published test vector, computed by the emulator and independently", () => {
		const secret = "It's a Secret to Everybody";
		const payload = 'Hello, World!';
		const vector = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';
		expect(sign(secret, payload)).toBe(vector);
		expect(referenceSignature(secret, Buffer.from(payload, 'utf8'))).toBe(vector);
	});

	it('sends no signature header without a secret', async () => {
		const e = emulator();
		await subscribe(e, { url: receiver().url });
		await inbound(e);
		await settle(e);
		expect(receiver().received.map((r) => header(r, 'x-service-event'))).toEqual([
			'webhook.test',
			'message.received',
		]);
		for (const got of receiver().received) {
			expect(got.headers).not.toHaveProperty('x-service-signature');
			const names = Object.keys(got.headers).filter((h) => !TRANSPORT_HEADERS.includes(h));
			expect(names.sort()).toEqual(SPEC_HEADERS.filter((h) => h !== 'x-service-signature'));
		}
	});

	it('fans one event out to every matching subscription, each with its own delivery id and signature', async () => {
		const e = emulator();
		const other = await new Receiver().start();
		try {
			const a = await subscribe(e, { url: receiver().url, secret: 'secret-a' });
			const b = await subscribe(e, { url: other.url, secret: 'secret-b' });
			receiver().received.length = 0;
			other.received.length = 0;
			const ids = await inbound(e);
			await settle(e);
			expect(ids).toHaveLength(2);
			expect(receiver().received).toHaveLength(1);
			expect(other.received).toHaveLength(1);
			expect(signatureValid('secret-a', receiver().received[0])).toBe(true);
			expect(signatureValid('secret-b', other.received[0])).toBe(true);
			expect(bodyOf(receiver().received[0]).webhook_id).toBe(a.subscription.id);
			expect(bodyOf(other.received[0]).webhook_id).toBe(b.subscription.id);
			const deliveryIds = [receiver().received[0], other.received[0]].map((r) =>
				header(r, 'x-service-delivery-id'),
			);
			expect(new Set(deliveryIds).size).toBe(2);
			expect([...deliveryIds].sort()).toEqual([...ids].sort());
		} finally {
			await other.stop();
		}
	});
});

// docs/service-assumptions.md#a32 (events from the admin API); spec "Each subscription selects which event types it receives and can be switched on or off".
describe('emulator webhooks: event selection and the active flag', () => {
	const emulator = usePromptEmulator();

	it("delivers only selected types, nothing to an inactive subscription, everything to '*'", async () => {
		const e = emulator();
		await admin(e, 'POST', '/reset');
		const [all, orders, off] = await Promise.all([1, 2, 3].map(() => new Receiver().start()));
		try {
			await subscribe(e, { url: all.url, events: ['*'] });
			await subscribe(e, { url: orders.url, events: ['order.created'] });
			const inactive = await subscribe(e, { url: off.url, active: false });
			for (const r of [all, orders, off]) r.received.length = 0;

			const ids = await inbound(e);
			expect(ids).toHaveLength(1);
			const order = await admin(e, 'POST', '/events', {
				event: 'order.created',
				data: { client_id: 'cl_ada' },
			});
			expect(order.status).toBe(201);
			await call(e, 'PUT', '/clients/cl_grace/tags', { body: { add: ['selection-test'] } });
			await settle(e);

			const events = (r: Receiver) => r.received.map((x) => header(x, 'x-service-event'));
			expect(events(all)).toEqual(['message.received', 'order.created', 'client.tagged']);
			expect(events(orders)).toEqual(['order.created']);
			expect(events(off)).toEqual([]);

			// Switched on, it receives from then on (after the test event of the save).
			await admin(e, 'PATCH', `/subscriptions/${inactive.subscription.id}`, { active: true });
			await inbound(e);
			await settle(e);
			expect(events(off)).toEqual(['webhook.test', 'message.received']);
			expect(events(orders)).toEqual(['order.created']);
		} finally {
			await Promise.all([all, orders, off].map((r) => r.stop()));
		}
	});
});
