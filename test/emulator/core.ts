import { randomBytes } from 'node:crypto';

import { VirtualClock } from './clock';
import { FaultTable } from './faults';
import type { Profile } from './profiles';
import { SlidingWindowLimiter } from './rate-limit';
import type { EventType } from './schemas';
import { EmulatorState, seed, type HistoryMessage } from './state';
import { WebhookDispatcher } from './webhooks';

export interface EmulatorOptions {
	/** The API key; a random one when left out. */
	apiKey?: string;
	/** Requests per window per token (spec: 100 a minute). */
	rateLimit?: number;
	rateWindowMs?: number;
	/** How long a webhook receiver has to answer 200 (spec: 5 s). */
	deliveryTimeoutMs?: number;
	/** Virtual seconds per real second: 600 runs the 21-minute retry schedule in about 2 s. */
	timeScale?: number;
	/** Waits before each retry (spec: 1, 5 and 15 minutes). */
	retryDelaysMs?: number[];
	/** Start with the demo bots and clients (default true). */
	seed?: boolean;
	/** How open shapes are answered (default `default`); `PUT /_admin/profile` changes it. */
	profile?: Profile;
}

export interface RequestLogEntry {
	/** When the request arrived (the moment the limit counts it), not when its answer was written. */
	at: string;
	method: string;
	path: string;
	query: string;
	status: number;
	key: string | null;
}

const SPEC_RETRY_DELAYS_MS = [60_000, 300_000, 900_000];

/** Everything the emulator knows, shared by the API and admin handlers. */
export class Core {
	readonly clock: VirtualClock;
	readonly state = new EmulatorState();
	readonly limiter: SlidingWindowLimiter;
	readonly faults = new FaultTable();
	readonly dispatcher: WebhookDispatcher;
	readonly apiKeys = new Set<string>();
	readonly primaryKey: string;
	readonly requestLog: RequestLogEntry[] = [];
	sent: HistoryMessage[] = [];
	profile: Profile;

	constructor(readonly options: EmulatorOptions = {}) {
		this.clock = new VirtualClock(options.timeScale ?? 1);
		this.profile = options.profile ?? 'default';
		this.limiter = new SlidingWindowLimiter(
			options.rateLimit ?? 100,
			options.rateWindowMs ?? 60_000,
		);
		this.dispatcher = new WebhookDispatcher(this.clock, {
			deliveryTimeoutMs: options.deliveryTimeoutMs ?? 5_000,
			retryDelaysMs: options.retryDelaysMs ?? SPEC_RETRY_DELAYS_MS,
		});
		this.primaryKey = options.apiKey ?? `mb_test_${randomBytes(16).toString('hex')}`;
		this.apiKeys.add(this.primaryKey);
		if (options.seed !== false) seed(this.state, this.clock.iso());
	}

	emit(event: EventType, data: Record<string, unknown>): void {
		this.dispatcher.emit(event, data);
	}

	/** Back to the start: seed data, no subscriptions, deliveries, faults or counted requests. */
	reset(): void {
		this.state.bots.clear();
		this.state.clients.clear();
		this.state.clientOrder = [];
		this.state.messages = [];
		this.state.messagesByClient.clear();
		this.state.orders.clear();
		this.sent = [];
		this.requestLog.length = 0;
		this.faults.clear();
		this.limiter.reset();
		this.dispatcher.reset();
		this.clock.clear(); // the retries of the deliveries just forgotten
		this.apiKeys.clear();
		this.apiKeys.add(this.primaryKey);
		if (this.options.seed !== false) seed(this.state, this.clock.iso());
	}

	/**
	 * Bearer and X-API-Key are both accepted (the spec shows both). When both are sent they must
	 * carry the same key.
	 */
	authenticate(headers: Record<string, string | string[] | undefined>): string | null {
		const auth = typeof headers.authorization === 'string' ? headers.authorization : undefined;
		const bearer = auth && /^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1];
		const header =
			typeof headers['x-api-key'] === 'string' ? headers['x-api-key'].trim() : undefined;
		if (auth !== undefined && !bearer) return null;
		if (bearer && header && bearer !== header) return null;
		const key = bearer || header;
		return key && this.apiKeys.has(key) ? key : null;
	}
}
