import { createHmac } from 'node:crypto';
import { Agent, request } from 'undici';

import type { VirtualClock } from './clock';
import { newId } from './state';
import { TEST_EVENT, type EventType } from './schemas';

export interface Subscription {
	id: string;
	url: string;
	secret: string | null;
	events: Array<EventType | '*'>;
	active: boolean;
	created_at: string;
	updated_at: string;
}

/** `failed` is only for test events, which are attempted once and never queued. */
type DeliveryState = 'pending' | 'awaiting_retry' | 'delivered' | 'dead_letter' | 'failed';

export interface Attempt {
	attempt: number;
	kind: 'initial' | 'retry' | 'manual' | 'test';
	started_at: string;
	finished_at: string;
	duration_ms: number;
	status_code: number | null;
	error: string | null;
	ok: boolean;
	/** Exactly what went over the wire, so tests can check the signature independently. */
	request: { headers: Record<string, string>; body: string };
	/** The start of what the receiver answered. */
	response_body?: string;
}

export interface Delivery {
	id: string;
	subscription_id: string;
	event: string;
	data: Record<string, unknown>;
	state: DeliveryState;
	test: boolean;
	created_at: string;
	next_attempt_at: string | null;
	attempts: Attempt[];
}

const USER_AGENT = 'Service-Webhooks/1.0';

/** The signature of the spec: sha256= and the lower-case hex HMAC-SHA256 of the body bytes. */
export function sign(secret: string, body: string): string {
	return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

export interface WebhookSettings {
	deliveryTimeoutMs: number;
	/** Waits before retries 1, 2 and 3: 1, 5 and 15 minutes in the spec. */
	retryDelaysMs: number[];
}

/**
 * Subscriptions and deliveries. A delivery is attempted at once; a failed attempt (anything but
 * HTTP 200 within the timeout) is retried after each delay in turn; when the last retry fails,
 * the delivery goes to the dead-letter queue, from which it can be re-requested.
 */
export class WebhookDispatcher {
	readonly subscriptions = new Map<string, Subscription>();
	readonly deliveries = new Map<string, Delivery>();
	private inFlight = new Set<Promise<void>>();
	private agent = new Agent({ keepAliveTimeout: 4_000, connections: 64 });

	constructor(
		private clock: VirtualClock,
		public settings: WebhookSettings,
	) {}

	/** Fans an event out to every active subscription that selected its type. */
	emit(event: EventType, data: Record<string, unknown>): Delivery[] {
		const created: Delivery[] = [];
		for (const sub of this.subscriptions.values()) {
			if (!sub.active) continue;
			if (!sub.events.includes('*') && !sub.events.includes(event)) continue;
			const delivery = this.newDelivery(sub, event, data, false);
			created.push(delivery);
			this.track(this.attempt(delivery, 'initial'));
		}
		return created;
	}

	/** The connection check sent when a subscription is saved: one attempt, no retries. */
	async sendTest(sub: Subscription): Promise<Delivery> {
		const delivery = this.newDelivery(
			sub,
			TEST_EVENT,
			{
				subscription_id: sub.id,
				message: 'Test event sent because the webhook subscription was saved.',
				events: sub.events,
			},
			true,
		);
		await this.attempt(delivery, 'test');
		return delivery;
	}

	async redeliver(id: string): Promise<Delivery | undefined> {
		const delivery = this.deliveries.get(id);
		if (!delivery || delivery.state !== 'dead_letter') return undefined;
		await this.attempt(delivery, 'manual');
		return delivery;
	}

	/** Waits until no attempt is on the wire. */
	async idle(): Promise<void> {
		while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
		await this.clock.idle();
	}

	async close(): Promise<void> {
		await this.agent.destroy();
	}

	reset(): void {
		this.subscriptions.clear();
		this.deliveries.clear();
	}

	private newDelivery(
		sub: Subscription,
		event: string,
		data: Record<string, unknown>,
		test: boolean,
	): Delivery {
		const delivery: Delivery = {
			id: newId('dlv'),
			subscription_id: sub.id,
			event,
			data,
			state: 'pending',
			test,
			created_at: this.clock.iso(),
			next_attempt_at: null,
			attempts: [],
		};
		this.deliveries.set(delivery.id, delivery);
		return delivery;
	}

	private track(p: Promise<void>): void {
		this.inFlight.add(p);
		void p.finally(() => this.inFlight.delete(p));
	}

	private async attempt(delivery: Delivery, kind: Attempt['kind']): Promise<void> {
		const sub = this.subscriptions.get(delivery.subscription_id);
		if (!sub) {
			delivery.state = 'dead_letter';
			delivery.next_attempt_at = null;
			return;
		}
		const body = JSON.stringify({
			event: delivery.event,
			data: delivery.data,
			webhook_id: sub.id,
			timestamp: this.clock.iso(),
		});
		const headers: Record<string, string> = {
			'Content-Type': 'application/json',
			'X-Service-Event': delivery.event,
			'X-Service-Delivery-ID': delivery.id,
			'User-Agent': USER_AGENT,
		};
		if (sub.secret) headers['X-Service-Signature'] = sign(sub.secret, body);

		const startedAt = this.clock.iso();
		const started = performance.now();
		let statusCode: number | null = null;
		let error: string | null = null;
		let responseBody: string | undefined;
		try {
			const res = await request(sub.url, {
				method: 'POST',
				headers,
				body,
				dispatcher: this.agent,
				signal: AbortSignal.timeout(this.settings.deliveryTimeoutMs),
			});
			statusCode = res.statusCode;
			responseBody = (await res.body.text()).slice(0, 300);
		} catch (e) {
			const err = e as Error & { code?: string };
			error =
				err.name === 'TimeoutError' || err.name === 'AbortError'
					? `no answer within ${this.settings.deliveryTimeoutMs} ms`
					: `${err.code ?? err.name}: ${err.message}`;
		}
		const ok = statusCode === 200;
		if (statusCode !== null && !ok) error = `answered HTTP ${statusCode}, expected 200`;
		delivery.attempts.push({
			attempt: delivery.attempts.length + 1,
			kind,
			started_at: startedAt,
			finished_at: this.clock.iso(),
			duration_ms: Math.round(performance.now() - started),
			status_code: statusCode,
			error,
			ok,
			request: { headers, body },
			...(responseBody === undefined ? {} : { response_body: responseBody }),
		});
		this.settle(delivery, kind, ok);
	}

	private settle(delivery: Delivery, kind: Attempt['kind'], ok: boolean): void {
		delivery.next_attempt_at = null;
		if (ok) {
			delivery.state = 'delivered';
			return;
		}
		if (kind === 'test') {
			delivery.state = 'failed';
			return;
		}
		if (kind === 'manual') {
			delivery.state = 'dead_letter';
			return;
		}
		const retriesDone = delivery.attempts.filter((a) => a.kind === 'retry').length;
		const delay = this.settings.retryDelaysMs[retriesDone];
		if (delay === undefined) {
			delivery.state = 'dead_letter';
			return;
		}
		delivery.state = 'awaiting_retry';
		const due = this.clock.now() + delay;
		delivery.next_attempt_at = new Date(due).toISOString();
		this.clock.schedule(due, () => this.attempt(delivery, 'retry'));
	}
}
