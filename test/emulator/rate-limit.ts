/**
 * Sliding-window limit per token: at most `limit` accepted requests in any `windowMs`.
 * The strictest reading of "100 requests per minute", so a client that passes here passes a
 * fixed-window service too. Refused requests are not counted (docs/service-assumptions.md).
 */
export class SlidingWindowLimiter {
	private hits = new Map<string, number[]>();

	constructor(
		public limit: number,
		public windowMs: number,
	) {}

	/** Records a hit and returns 0, or returns the seconds to wait before a hit would be accepted. */
	take(token: string, now: number): number {
		const windowStart = now - this.windowMs;
		const list = (this.hits.get(token) ?? []).filter((t) => t > windowStart);
		this.hits.set(token, list);
		if (list.length < this.limit) {
			list.push(now);
			return 0;
		}
		const waitMs = list[list.length - this.limit] + this.windowMs - now;
		return Math.max(1, Math.ceil(waitMs / 1000));
	}

	reset(): void {
		this.hits.clear();
	}
}
