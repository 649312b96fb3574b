/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling: polls with setTimeout, never loaded by n8n */
import { sign, type RunningEmulator } from '../../emulator';
import type { Delivery } from '../../emulator/webhooks';
import { referenceSignature, signatureValid } from '../../helpers/deliveries';
import { admin, call, useEmulator } from '../../helpers/emulator';
import { Receiver, type Received } from '../../helpers/receiver';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
const SPEC_HEADERS = [
	'content-type',
	'user-agent',
	'x-service-delivery-id',
	'x-service-event',
	'x-service-signature',
];
/** Headers the HTTP transport adds on its own; everything else must be the spec's. */
const TRANSPORT_HEADERS = [
	'host',
	'connection',
	'content-length',
	'transfer-encoding',
	'keep-alive',
];
const RETRY_DELAYS_MS = [60_000, 300_000, 900_000];
const SECRET = 'whsec_contract-test';

type SubscriptionView = {
	id: string;
	url: string;
	events: string[];
	active: boolean;
	has_secret: boolean;
	created_at: string;
	updated_at: string;
};
type Saved = { subscription: SubscriptionView; test_delivery: Delivery };
type Body = { event: string; data: Record<string, unknown>; webhook_id: string; timestamp: string };

const bodyOf = (r: Received): Body => JSON.parse(r.raw.toString('utf8')) as Body;
const header = (r: Received, name: string) => r.headers[name];

async function subscribe(e: RunningEmulator, body: Record<string, unknown>): Promise<Saved> {
	const r = await admin<Saved>(e, 'POST', '/subscriptions', body);
	expect(r.status).toBe(201);
	return r.body.data;
}

async function inbound(e: RunningEmulator, text = 'hi'): Promise<string[]> {
	const r = await admin<{ delivery_ids: string[] }>(e, 'POST', '/inbound', {
		bot_id: 'bot_shop',
		client_id: 'cl_ada',
		text,
	});
	expect(r.status).toBe(201);
	return r.body.data.delivery_ids;
}

async function delivery(e: RunningEmulator, id: string): Promise<Delivery> {
	const r = await admin<Delivery>(e, 'GET', `/deliveries/${id}`);
	expect(r.status).toBe(200);
	return r.body.data;
}

async function settle(e: RunningEmulator): Promise<void> {
	expect((await admin(e, 'POST', '/settle')).status).toBe(200);
}

async function advance(e: RunningEmulator, ms: number): Promise<void> {
	expect((await admin(e, 'POST', '/clock/advance', { ms })).status).toBe(200);
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One receiver per test, and an emulator without subscriptions or deliveries. */
function useReceiver(emulator: () => RunningEmulator): () => Receiver {
	let receiver: Receiver | undefined;
	beforeEach(async () => {
		await admin(emulator(), 'POST', '/reset');
		receiver = await new Receiver().start();
	});
	afterEach(async () => {
		await receiver?.stop();
	});
	return () => {
		if (!receiver) throw new Error('receiver not started');
		return receiver;
	};
}

// docs/service-assumptions.md: A31 (test event on saving), A34 (subscriptions in the admin API, https except localhost).
describe('emulator webhooks: subscriptions', () => {
	const emulator = useEmulator({ deliveryTimeoutMs: 300 });
	const receiver = useReceiver(emulator);

	it.each([
		['plain http to a public host', 'http://example.com/hook'],
		['plain http to a look-alike of localhost', 'http://localhost.evil.example/hook'],
		['plain http to a look-alike of 127.0.0.1', 'http://127.0.0.1.nip.io/hook'],
		['another scheme', 'ftp://localhost/hook'],
		['something that is no URL', 'not a url'],
	])('refuses %s with 400 naming url', async (_name, url) => {
		const r = await admin(emulator(), 'POST', '/subscriptions', { url });
		expect(r.status).toBe(400);
		expect(r.body.success).toBe(false);
		expect(r.body.error?.code).toBe('validation_error');
		expect(r.body.error?.details).toEqual([{ field: 'url', rule: expect.any(String) }]);
		expect(
			(await admin<SubscriptionView[]>(emulator(), 'GET', '/subscriptions')).body.data,
		).toEqual([]);
	});

	it('says which hosts may use plain http', async () => {
		const r = await admin(emulator(), 'POST', '/subscriptions', { url: 'http://example.com/hook' });
		expect(r.body.error?.message).toMatch(/https/);
		for (const host of ['localhost', '127.0.0.1', '[::1]'])
			expect(r.body.error?.message).toContain(host);
	});

	it('accepts an https URL; the test event that cannot connect ends failed without harm', async () => {
		const e = emulator();
		const saved = await subscribe(e, { url: 'https://example.com/hook' });
		expect(saved.subscription).toMatchObject({
			url: 'https://example.com/hook',
			active: true,
			events: ['*'],
		});
		expect(saved.test_delivery).toMatchObject({
			event: 'webhook.test',
			state: 'failed',
			test: true,
		});
		expect(saved.test_delivery.attempts).toHaveLength(1);
		expect(saved.test_delivery.attempts[0]).toMatchObject({ ok: false, kind: 'test' });
		expect(saved.test_delivery.attempts[0].error).toEqual(expect.any(String));
		// No retry is scheduled for a test event, and the service keeps serving.
		await advance(e, 30 * 60_000);
		expect((await delivery(e, saved.test_delivery.id)).attempts).toHaveLength(1);
		expect((await call(e, 'GET', '/bots')).status).toBe(200);
	});

	it.each(['localhost', '127.0.0.1', '[::1]'])('accepts plain http on %s', async (host) => {
		const url = receiver().url.replace('127.0.0.1', host);
		const saved = await subscribe(emulator(), { url });
		expect(saved.subscription.url).toBe(url);
	});

	it('never echoes the secret, only has_secret', async () => {
		const e = emulator();
		const marker = 'never-shown-4f1c2d';
		const post = await admin<Saved>(e, 'POST', '/subscriptions', {
			url: receiver().url,
			secret: marker,
		});
		expect(post.status).toBe(201);
		expect(post.body.data.subscription.has_secret).toBe(true);
		expect(post.body.data.subscription).not.toHaveProperty('secret');
		const id = post.body.data.subscription.id;
		const list = await admin<SubscriptionView[]>(e, 'GET', '/subscriptions');
		const patched = await admin<Saved>(e, 'PATCH', `/subscriptions/${id}`, {
			events: ['message.sent'],
		});
		const deliveries = await admin(e, 'GET', '/deliveries');
		for (const r of [post, list, patched, deliveries])
			expect(JSON.stringify(r.body)).not.toContain(marker);
		expect(list.body.data).toEqual([post.body.data.subscription]);

		const removed = await admin<Saved>(e, 'PATCH', `/subscriptions/${id}`, { secret: null });
		expect(removed.body.data.subscription.has_secret).toBe(false);
		const plain = await subscribe(e, { url: receiver().url });
		expect(plain.subscription.has_secret).toBe(false);
	});

	it('lists, changes and deletes subscriptions', async () => {
		const e = emulator();
		const a = await subscribe(e, { url: receiver().url, events: ['message.received'] });
		const b = await subscribe(e, { url: receiver().url, active: false });
		expect(a.subscription).toEqual({
			id: expect.stringMatching(/\S/),
			url: receiver().url,
			events: ['message.received'],
			active: true,
			has_secret: false,
			created_at: expect.stringMatching(ISO_UTC),
			updated_at: expect.stringMatching(ISO_UTC),
		});
		expect(b.subscription).toMatchObject({ events: ['*'], active: false });

		const listed = await admin<SubscriptionView[]>(e, 'GET', '/subscriptions');
		expect(listed.body.data.map((s) => s.id).sort()).toEqual(
			[a.subscription.id, b.subscription.id].sort(),
		);

		const patched = await admin<Saved>(e, 'PATCH', `/subscriptions/${a.subscription.id}`, {
			events: ['order.created', 'order.updated'],
			active: false,
		});
		expect(patched.status).toBe(200);
		expect(patched.body.data.subscription).toMatchObject({
			id: a.subscription.id,
			events: ['order.created', 'order.updated'],
			active: false,
		});
		const bad = await admin(e, 'PATCH', `/subscriptions/${a.subscription.id}`, {
			url: 'http://example.com/x',
		});
		expect(bad.status).toBe(400);
		expect(bad.body.error?.details).toEqual([{ field: 'url', rule: expect.any(String) }]);

		expect((await admin(e, 'DELETE', `/subscriptions/${a.subscription.id}`)).status).toBe(200);
		const after = await admin<SubscriptionView[]>(e, 'GET', '/subscriptions');
		expect(after.body.data.map((s) => s.id)).toEqual([b.subscription.id]);
		expect((await admin(e, 'DELETE', `/subscriptions/${a.subscription.id}`)).status).toBe(404);
		expect(
			(await admin(e, 'PATCH', `/subscriptions/${a.subscription.id}`, { active: true })).status,
		).toBe(404);
	});

	it('sends exactly one test event when a subscription is saved', async () => {
		const e = emulator();
		const saved = await subscribe(e, {
			url: receiver().url,
			secret: SECRET,
			events: ['message.received', 'order.created'],
		});
		// The save answers only once the test attempt is over.
		expect(receiver().received).toHaveLength(1);
		await settle(e);
		expect(receiver().received).toHaveLength(1);

		const [got] = receiver().received;
		expect(header(got, 'x-service-event')).toBe('webhook.test');
		expect(header(got, 'x-service-delivery-id')).toBe(saved.test_delivery.id);
		expect(signatureValid(SECRET, got)).toBe(true);
		expect(bodyOf(got)).toEqual({
			event: 'webhook.test',
			data: {
				subscription_id: saved.subscription.id,
				message: expect.stringMatching(/\S/),
				events: ['message.received', 'order.created'],
			},
			webhook_id: saved.subscription.id,
			timestamp: expect.stringMatching(ISO_UTC),
		});
		expect(saved.test_delivery).toMatchObject({ state: 'delivered', test: true });
		expect(saved.test_delivery.attempts).toHaveLength(1);
		expect(saved.test_delivery.attempts[0]).toMatchObject({
			kind: 'test',
			status_code: 200,
			ok: true,
		});
	});

	it('attempts a test event once, without retries, and marks it failed when not answered 200', async () => {
		const e = emulator();
		receiver().fallback = { status: 500 };
		const saved = await subscribe(e, { url: receiver().url });
		expect(saved.test_delivery.state).toBe('failed');
		expect(saved.test_delivery.next_attempt_at).toBeNull();
		await advance(e, 60_000);
		await advance(e, 300_000);
		await advance(e, 900_000);
		expect(receiver().received).toHaveLength(1);
		expect((await delivery(e, saved.test_delivery.id)).state).toBe('failed');
		expect((await admin<Delivery[]>(e, 'GET', '/dead-letter')).body.data).toEqual([]);
	});

	it('sends a test event on demand', async () => {
		const e = emulator();
		const saved = await subscribe(e, { url: receiver().url });
		const r = await admin<Delivery>(e, 'POST', `/subscriptions/${saved.subscription.id}/test`);
		expect(r.status).toBe(200);
		expect(r.body.data).toMatchObject({ event: 'webhook.test', state: 'delivered', test: true });
		expect(receiver().received.map((x) => header(x, 'x-service-event'))).toEqual([
			'webhook.test',
			'webhook.test',
		]);
		expect(header(receiver().received[1], 'x-service-delivery-id')).toBe(r.body.data.id);
	});
});

// docs/service-assumptions.md: A29 (delivery id), A30 (signed bytes); spec "Events" (headers, body, Message fields).
describe('emulator webhooks: what a delivery looks like', () => {
	const emulator = useEmulator({ deliveryTimeoutMs: 300 });
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
		expect(body.data).toEqual({
			message_id: expect.stringMatching(/\S/),
			client_id: 'cl_ada',
			bot_id: 'bot_shop',
			text: 'hi',
			channel: expect.stringMatching(/\S/),
			timestamp: expect.stringMatching(ISO_UTC),
			metadata: { message_type: 'text', has_attachments: false },
		});
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

// docs/service-assumptions.md: A32 (events from the admin API); spec "Each subscription selects which event types it receives and can be switched on or off".
describe('emulator webhooks: event selection and the active flag', () => {
	const emulator = useEmulator({ deliveryTimeoutMs: 300 });

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

// docs/service-assumptions.md: A28 (only HTTP 200 within the timeout counts; here the timeout is 300 ms).
describe('emulator webhooks: what counts as a successful attempt', () => {
	const emulator = useEmulator({ deliveryTimeoutMs: 300 });
	const receiver = useReceiver(emulator);

	async function firstAttempt(answer: { status: number; delayMs?: number }): Promise<Delivery> {
		const e = emulator();
		await subscribe(e, { url: receiver().url });
		receiver().queue.push(answer);
		const [id] = await inbound(e);
		await settle(e);
		return delivery(e, id);
	}

	it.each([201, 204, 302, 404, 500, 503])(
		'fails an attempt answered %i and schedules a retry',
		async (status) => {
			const d = await firstAttempt({ status });
			expect(d.state).toBe('awaiting_retry');
			expect(d.attempts).toHaveLength(1);
			expect(d.attempts[0]).toMatchObject({ kind: 'initial', status_code: status, ok: false });
			expect(d.attempts[0].error).toContain(String(status));
			expect(d.next_attempt_at).toMatch(ISO_UTC);
			expect(receiver().received).toHaveLength(2); // the test event, then the attempt
		},
	);

	it('fails an attempt that is not answered within the delivery timeout', async () => {
		const started = Date.now();
		const d = await firstAttempt({ status: 200, delayMs: 1_500 });
		expect(Date.now() - started).toBeLessThan(1_400);
		expect(d.state).toBe('awaiting_retry');
		expect(d.attempts[0]).toMatchObject({ status_code: null, ok: false });
		expect(d.attempts[0].error).toMatch(/300 ms/);
		expect(d.attempts[0].duration_ms).toBeGreaterThanOrEqual(250);
		expect(d.attempts[0].duration_ms).toBeLessThan(1_000);
		expect(receiver().received).toHaveLength(2); // it did arrive; the answer came too late
	});

	it('counts a 200 that comes within the timeout', async () => {
		const d = await firstAttempt({ status: 200, delayMs: 100 });
		expect(d.state).toBe('delivered');
		expect(d.next_attempt_at).toBeNull();
		expect(d.attempts[0]).toMatchObject({ status_code: 200, ok: true, error: null });
	});

	it('fails an attempt whose connection is refused', async () => {
		const e = emulator();
		await subscribe(e, { url: 'http://127.0.0.1:1/hook' });
		const [id] = await inbound(e);
		await settle(e);
		const d = await delivery(e, id);
		expect(d.state).toBe('awaiting_retry');
		expect(d.attempts[0]).toMatchObject({ status_code: null, ok: false });
		expect(d.attempts[0].error).toEqual(expect.any(String));
	});
});

// docs/service-assumptions.md: A28 (retries after 1, 5, 15 min from the previous failure; then dead letter),
// A29 (same delivery id on every attempt, also on a re-request; timestamp of the attempt), A34 (re-request via admin API).
describe('emulator webhooks: retry schedule and dead-letter queue', () => {
	const emulator = useEmulator({ deliveryTimeoutMs: 300 });
	const receiver = useReceiver(emulator);

	it('retries after 1, 5 and 15 minutes with the same delivery id, then dead-letters; a re-request delivers it', async () => {
		const e = emulator();
		await subscribe(e, { url: receiver().url, secret: SECRET });
		receiver().received.length = 0;
		receiver().fallback = { status: 500 };

		const [id] = await inbound(e);
		await settle(e);
		let d = await delivery(e, id);
		expect(d.state).toBe('awaiting_retry');
		expect(receiver().received).toHaveLength(1);

		for (const [i, delay] of RETRY_DELAYS_MS.entries()) {
			const lastFailure = Date.parse(d.attempts[i].finished_at);
			const due = Date.parse(d.next_attempt_at ?? '');
			expect(due - lastFailure).toBeGreaterThanOrEqual(delay);
			expect(due - lastFailure).toBeLessThan(delay + 1_000);

			// Short of the delay, nothing happens.
			await advance(e, delay - 10_000);
			await advance(e, 9_000);
			d = await delivery(e, id);
			expect(d.state).toBe('awaiting_retry');
			expect(d.attempts).toHaveLength(i + 1);
			expect(receiver().received).toHaveLength(i + 1);

			// At the delay, the retry goes out.
			await advance(e, 1_000);
			d = await delivery(e, id);
			expect(d.attempts).toHaveLength(i + 2);
			expect(receiver().received).toHaveLength(i + 2);
			expect(Date.parse(d.attempts[i + 1].started_at) - lastFailure).toBeGreaterThanOrEqual(delay);
		}

		expect(d.state).toBe('dead_letter');
		expect(d.next_attempt_at).toBeNull();
		expect(d.attempts.map((a) => a.kind)).toEqual(['initial', 'retry', 'retry', 'retry']);
		for (const a of d.attempts) {
			expect(a).toMatchObject({ status_code: 500, ok: false });
			expect(a.started_at).toMatch(ISO_UTC);
			expect(a.finished_at).toMatch(ISO_UTC);
			expect(a.duration_ms).toEqual(expect.any(Number));
		}

		// Every attempt: the same delivery id, the same event, its own timestamp and a valid signature.
		const got = receiver().received;
		expect(got.map((r) => header(r, 'x-service-delivery-id'))).toEqual([id, id, id, id]);
		const bodies = got.map(bodyOf);
		for (const b of bodies) expect(b.data).toEqual(bodies[0].data);
		for (const [i, delay] of RETRY_DELAYS_MS.entries()) {
			expect(
				Date.parse(bodies[i + 1].timestamp) - Date.parse(bodies[i].timestamp),
			).toBeGreaterThanOrEqual(delay);
		}
		for (const r of got) expect(signatureValid(SECRET, r)).toBe(true);

		const listed = await admin<Delivery[]>(e, 'GET', '/deliveries');
		expect(listed.body.data.find((x) => x.id === id)).toEqual(d); // state, attempts with status and timing
		const dead = await admin<Delivery[]>(e, 'GET', '/dead-letter');
		expect(dead.body.data.map((x) => [x.id, x.state])).toEqual([[id, 'dead_letter']]);

		// Nothing more by itself, however long one waits.
		await advance(e, 24 * 3_600_000);
		expect(receiver().received).toHaveLength(4);
		expect(
			(await admin<{ pending_tasks: number }>(e, 'GET', '/clock')).body.data.pending_tasks,
		).toBe(0);

		// A re-request while the receiver still fails: one attempt, back in the queue.
		const again = await admin<Delivery>(e, 'POST', `/dead-letter/${id}/redeliver`);
		expect(again.status).toBe(200);
		expect(again.body.data).toMatchObject({ id, state: 'dead_letter' });
		expect(again.body.data.attempts).toHaveLength(5);
		expect(receiver().received).toHaveLength(5);

		// Fixed receiver: the re-request delivers it, under the same delivery id.
		receiver().fallback = { status: 200 };
		const fixed = await admin<Delivery>(e, 'POST', `/dead-letter/${id}/redeliver`);
		expect(fixed.status).toBe(200);
		expect(fixed.body.data).toMatchObject({ id, state: 'delivered' });
		expect(fixed.body.data.attempts).toHaveLength(6);
		expect(fixed.body.data.attempts[5]).toMatchObject({
			kind: 'manual',
			status_code: 200,
			ok: true,
		});
		expect(receiver().received).toHaveLength(6);
		const last = receiver().received[5];
		expect(header(last, 'x-service-delivery-id')).toBe(id);
		expect(signatureValid(SECRET, last)).toBe(true);
		expect(bodyOf(last).data).toEqual(bodies[0].data);
		expect((await admin<Delivery[]>(e, 'GET', '/dead-letter')).body.data).toEqual([]);
		expect((await delivery(e, id)).state).toBe('delivered');

		// Only the dead-letter queue can be re-requested.
		const conflict = await admin(e, 'POST', `/dead-letter/${id}/redeliver`);
		expect(conflict.status).toBe(409);
		expect(conflict.body.error?.code).toBe('conflict');
		expect(receiver().received).toHaveLength(6);
		expect((await admin(e, 'POST', '/dead-letter/dlv_unknown/redeliver')).status).toBe(404);
	});

	it('ends delivered with two attempts when the first retry is answered 200', async () => {
		const e = emulator();
		await subscribe(e, { url: receiver().url });
		receiver().received.length = 0;
		receiver().queue.push({ status: 500 });

		const [id] = await inbound(e);
		await settle(e);
		expect((await delivery(e, id)).state).toBe('awaiting_retry');
		await advance(e, 60_000);
		const d = await delivery(e, id);
		expect(d.state).toBe('delivered');
		expect(d.next_attempt_at).toBeNull();
		expect(d.attempts.map((a) => [a.kind, a.status_code, a.ok])).toEqual([
			['initial', 500, false],
			['retry', 200, true],
		]);
		expect(receiver().received.map((r) => header(r, 'x-service-delivery-id'))).toEqual([id, id]);

		await advance(e, 60 * 60_000);
		expect(receiver().received).toHaveLength(2);
		expect((await admin<Delivery[]>(e, 'GET', '/dead-letter')).body.data).toEqual([]);
		expect((await admin(e, 'POST', `/dead-letter/${id}/redeliver`)).status).toBe(409);
	});

	it('filters the delivery history by event, state and subscription', async () => {
		const e = emulator();
		const saved = await subscribe(e, { url: receiver().url });
		receiver().queue.push({ status: 500 });
		const [failing] = await inbound(e);
		const [ok] = await inbound(e);
		await settle(e);
		const get = async (q: string) =>
			(await admin<Delivery[]>(e, 'GET', `/deliveries?${q}`)).body.data.map((d) => d.id);
		expect(await get('state=awaiting_retry')).toEqual([failing]);
		expect(await get('state=delivered&event=message.received')).toEqual([ok]);
		expect(await get('event=webhook.test')).toEqual([saved.test_delivery.id]);
		expect((await get(`subscription_id=${saved.subscription.id}`)).sort()).toEqual(
			[saved.test_delivery.id, failing, ok].sort(),
		);
	});

	it('forgets deliveries and their scheduled retries on reset', async () => {
		const e = emulator();
		await subscribe(e, { url: receiver().url });
		receiver().fallback = { status: 500 };
		await inbound(e);
		await settle(e);
		expect(
			(await admin<{ pending_tasks: number }>(e, 'GET', '/clock')).body.data.pending_tasks,
		).toBe(1);

		await admin(e, 'POST', '/reset');
		const state = await admin<{ deliveries: number; subscriptions: number; pending_tasks: number }>(
			e,
			'GET',
			'/state',
		);
		expect(state.body.data).toMatchObject({ deliveries: 0, subscriptions: 0, pending_tasks: 0 });
		const before = receiver().received.length;
		await advance(e, 60 * 60_000);
		expect(receiver().received).toHaveLength(before);
	});
});

// docs/service-assumptions.md: A28 under a scaled clock (core option timeScale: virtual time runs 3000 times faster).
describe('emulator webhooks: the schedule under a scaled clock', () => {
	const emulator = useEmulator({ timeScale: 3_000, deliveryTimeoutMs: 200 });
	const receiver = useReceiver(emulator);

	it('runs the whole retry schedule by itself in real seconds, without advancing the clock', async () => {
		const e = emulator();
		await subscribe(e, { url: receiver().url });
		receiver().received.length = 0;
		receiver().fallback = { status: 500 };

		const started = Date.now();
		const [id] = await inbound(e);
		let d = await delivery(e, id);
		while (d.state !== 'dead_letter' && Date.now() - started < 5_000) {
			await pause(20);
			d = await delivery(e, id);
		}
		expect(d.state).toBe('dead_letter');
		expect(Date.now() - started).toBeLessThan(5_000);
		expect(d.attempts.map((a) => a.kind)).toEqual(['initial', 'retry', 'retry', 'retry']);
		for (const [i, delay] of RETRY_DELAYS_MS.entries()) {
			const gap = Date.parse(d.attempts[i + 1].started_at) - Date.parse(d.attempts[i].finished_at);
			expect(gap).toBeGreaterThanOrEqual(delay);
		}
		expect(receiver().received.map((r) => header(r, 'x-service-delivery-id'))).toEqual([
			id,
			id,
			id,
			id,
		]);
		const dead = await admin<Delivery[]>(e, 'GET', '/dead-letter');
		expect(dead.body.data.map((x) => x.id)).toEqual([id]);
	});
});
