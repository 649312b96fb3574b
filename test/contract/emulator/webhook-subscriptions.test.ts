import type { Delivery } from '../../emulator/webhooks';
import { signatureValid } from '../../helpers/deliveries';
import { admin, call } from '../../helpers/emulator';
import {
	ISO_UTC,
	SECRET,
	bodyOf,
	header,
	subscribe,
	delivery,
	settle,
	advance,
	useReceiver,
	type SubscriptionView,
	type Saved,
	usePromptEmulator,
} from './webhook-fixture';

// docs/service-assumptions.md#a31 (test event on saving), #a34 (subscriptions in the admin API, https except localhost).
describe('emulator webhooks: subscriptions', () => {
	const emulator = usePromptEmulator();
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
