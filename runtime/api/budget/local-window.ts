import type { Clock } from '../clock';
import { marginFor, reserveFor, type Priority, type SlotSource } from './types';

/**
 * At most `limit` requests in any window, counted in this process: the send times of the last
 * `limit` requests, and a block set by the service's 429.
 */
export class LocalWindow implements SlotSource {
	private readonly sent: number[] = [];
	private blockedUntil = 0;

	constructor(
		public limit: number,
		public windowMs: number,
		private readonly clock: Pick<Clock, 'now'>,
	) {}

	async take(priority: Priority): Promise<number> {
		const now = this.clock.now();
		if (this.blockedUntil > now) return this.blockedUntil - now;
		const span = this.windowMs + marginFor(this.windowMs);
		while (this.sent.length > 0 && this.sent[0] <= now - span) this.sent.shift();
		const cap = priority === 'bulk' ? this.limit - reserveFor(this.limit) : this.limit;
		if (this.sent.length >= cap) {
			// The slot frees when the request `cap` places back leaves the window.
			return Math.max(1, this.sent[this.sent.length - cap] + span - now);
		}
		this.sent.push(now);
		return 0;
	}

	async block(ms: number): Promise<void> {
		this.blockedUntil = Math.max(this.blockedUntil, this.clock.now() + ms);
	}

	tighten(limit: number, windowMs: number): void {
		this.limit = Math.min(this.limit, limit);
		this.windowMs = Math.max(this.windowMs, windowMs);
	}
}
