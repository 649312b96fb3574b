import type { RunningEmulator } from '../../emulator';
import type { Delivery } from '../../emulator/webhooks';
import type { Receiver } from '../../helpers/receiver';
import { useEmulator } from '../../helpers/emulator';
import {
	ISO_UTC,
	subscribe,
	inbound,
	delivery,
	settle,
	useReceiver,
	usePromptEmulator,
} from './webhook-fixture';

type Answer = { status: number; delayMs?: number };

/** The emulator's first attempt at a delivery the test's receiver answers with `answer`. */
function firstAttemptOn(emulator: () => RunningEmulator, receiver: () => Receiver) {
	return async (answer: Answer): Promise<Delivery> => {
		const e = emulator();
		await subscribe(e, { url: receiver().url });
		receiver().queue.push(answer);
		const [id] = await inbound(e);
		await settle(e);
		return delivery(e, id);
	};
}

// docs/service-assumptions.md#a28 (only HTTP 200 within the timeout counts). The answers here
// come at once: a timeout of seconds, so that a loaded machine's slow answer is not a timeout.
describe('emulator webhooks: what counts as a successful attempt', () => {
	const emulator = usePromptEmulator();
	const receiver = useReceiver(emulator);
	const firstAttempt = firstAttemptOn(emulator, receiver);

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

// An answer later than the timeout (300 ms here, the answer 1.5 s late).
describe('emulator webhooks: an attempt not answered in time', () => {
	const emulator = useEmulator({ deliveryTimeoutMs: 300 });
	const receiver = useReceiver(emulator);
	const firstAttempt = firstAttemptOn(emulator, receiver);

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
});
