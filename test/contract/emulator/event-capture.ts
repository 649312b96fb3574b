/** What the event contract tests share: a receiver subscribed to every event, and how to read it. */
import type { RunningEmulator } from '../../emulator';
import { signatureValid } from '../../helpers/deliveries';
import { admin } from '../../helpers/emulator';
import { Receiver } from '../../helpers/receiver';

import { ISO_UTC } from './event-shapes';
import { usePromptEmulator } from './webhook-fixture';

export { ISO_UTC };
const SECRET = 'whsec_events-contract';

export type Got = { event: string; data: Record<string, unknown>; deliveryId: string };
export type Client = { id: string; tags: string[]; [field: string]: unknown };
export type Order = {
	order_id: string;
	client_id: string;
	status: string;
	[field: string]: unknown;
};
export type Emitted = { event: string; data: Record<string, unknown>; delivery_ids: string[] };

/** One emulator with a receiver subscribed to every event, signed; each test starts from the seed. */
export function useEventCapture() {
	const emulator = usePromptEmulator();
	let receiver: Receiver;
	let subscriptionId: string;

	beforeAll(async () => {
		receiver = await new Receiver().start();
	});
	afterAll(async () => {
		await receiver.stop();
	});
	beforeEach(async () => {
		const e = emulator();
		await admin(e, 'POST', '/reset');
		const saved = await admin<{ subscription: { id: string } }>(e, 'POST', '/subscriptions', {
			url: receiver.url,
			secret: SECRET,
			events: ['*'],
		});
		expect(saved.status).toBe(201);
		subscriptionId = saved.body.data.subscription.id;
	});

	/** Runs one action and returns what the receiver got for it, each delivery checked and signed. */
	async function capture<T>(
		action: (e: RunningEmulator) => Promise<T>,
	): Promise<{ result: T; events: Got[] }> {
		const e = emulator();
		receiver.received.length = 0;
		const result = await action(e);
		await admin(e, 'POST', '/settle');
		const events = receiver.received.map((r) => {
			expect(signatureValid(SECRET, r)).toBe(true);
			const body = JSON.parse(r.raw.toString('utf8')) as Record<string, unknown>;
			expect(Object.keys(body).sort()).toEqual(['data', 'event', 'timestamp', 'webhook_id']);
			expect(r.headers['x-service-event']).toBe(body.event);
			expect(body.webhook_id).toBe(subscriptionId);
			expect(body.timestamp).toMatch(ISO_UTC);
			return {
				event: body.event as string,
				data: body.data as Record<string, unknown>,
				deliveryId: String(r.headers['x-service-delivery-id']),
			};
		});
		return { result, events };
	}

	const emit = (e: RunningEmulator, event: string, data?: Record<string, unknown>) =>
		admin<Emitted>(e, 'POST', '/events', data === undefined ? { event } : { event, data });

	return { emulator, capture, emit };
}
