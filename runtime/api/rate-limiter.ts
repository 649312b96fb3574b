import type { Clock } from './clock';

/**
 * At most `limit` requests in any `windowMs`, counted when a request is sent. A caller reserves
 * the earliest free slot synchronously, so concurrent callers never over-book, then sleeps until
 * it. The margin absorbs the difference between our send time and the service's arrival time.
 */
export class SlidingWindowLimiter {
	private slots: number[] = [];
	private blockedUntil = 0;

	constructor(
		public limit: number,
		public windowMs: number,
		private readonly clock: Clock,
		// 250 ms on the service's 60 s window (0.4 %); proportionally less on a scaled one.
		readonly marginMs = Math.min(250, windowMs / 20),
	) {}

	/** Waits for a slot; resolves when the request may be sent. Returns how long it waited. */
	async acquire(): Promise<number> {
		const now = this.clock.now();
		const span = this.windowMs + this.marginMs;
		while (this.slots.length > 0 && this.slots[0] <= now - span) this.slots.shift();
		const blocking = this.slots.length - this.limit;
		const free = blocking >= 0 ? Math.max(now, this.slots[blocking] + span) : now;
		const at = Math.max(free, this.blockedUntil);
		this.slots.push(at);
		const wait = at - now;
		if (wait > 0) await this.clock.sleep(wait);
		return wait;
	}

	/** Another credential on the same key asks for less: the strictest setting wins. */
	tighten(limit: number, windowMs: number): void {
		this.limit = Math.min(this.limit, limit);
		this.windowMs = Math.max(this.windowMs, windowMs);
	}

	/** After a 429 the service's view wins: no request leaves before `until`. */
	blockUntil(until: number): void {
		this.blockedUntil = Math.max(this.blockedUntil, until);
	}
}

/**
 * One limiter per API key and base URL for the whole process, so every execution and every node
 * in this n8n shares the service's budget of that key. The registry lives on `globalThis`, not in
 * this module: each node is bundled on its own, and a module-level map would give every bundle
 * (the Messaging Bot node, the Scenario node) a budget of its own on the same key.
 */
const REGISTRY = Symbol.for('n8n-nodes-messaging-bot.request-budgets.v1');

function registry(): Map<string, SlidingWindowLimiter> {
	// eslint-disable-next-line @n8n/community-nodes/no-restricted-globals -- the one object every separately bundled node of this package shares in the n8n process; a module-level map would double the service's limit
	const holder = globalThis as { [REGISTRY]?: Map<string, SlidingWindowLimiter> };
	return (holder[REGISTRY] ??= new Map());
}

/** `budgetId` identifies the key and base URL without holding the key (a hash of both). */
export function sharedLimiter(
	budgetId: string,
	clock: Clock,
	limit = 100,
	windowMs = 60_000,
): SlidingWindowLimiter {
	const limiters = registry();
	let limiter = limiters.get(budgetId);
	if (!limiter) {
		limiter = new SlidingWindowLimiter(limit, windowMs, clock);
		limiters.set(budgetId, limiter);
	} else limiter.tighten(limit, windowMs);
	return limiter;
}
