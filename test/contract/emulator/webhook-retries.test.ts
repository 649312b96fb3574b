import type { Delivery } from '../../emulator/webhooks';
import { signatureValid } from '../../helpers/deliveries';
import { admin, useEmulator } from '../../helpers/emulator';
import {
	ISO_UTC,
	RETRY_DELAYS_MS,
	SECRET,
	bodyOf,
	header,
	subscribe,
	inbound,
	delivery,
	settle,
	advance,
	pause,
	useReceiver,
	usePromptEmulator,
} from './webhook-fixture';

// docs/service-assumptions.md#a28 (retries after 1, 5, 15 min from the previous failure; then dead letter),
// #a29 (same delivery id on every attempt, also on a re-request; timestamp of the attempt), #a34 (re-request via admin API).
describe('emulator webhooks: retry schedule and dead-letter queue', () => {
	const emulator = usePromptEmulator();
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

// docs/service-assumptions.md#a28 under a scaled clock (core option timeScale: virtual time runs 3000 times faster).
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
