import type { Clock } from '../clock';
import {
	marginFor,
	pollFor,
	RESERVE_WINDOWS,
	reserveFor,
	type Priority,
	type SlotSource,
	type Take,
} from './types';

/**
 * At most `limit` requests in any window, counted in this process: the answer times of the last
 * `limit` requests, the requests still waiting for an answer, and a block set by a 429.
 */
export class LocalWindow implements SlotSource {
	/** Answer times, oldest first. */
	private readonly answered: number[] = [];
	private readonly inFlight = new Set<string>();
	private taken = 0;
	private blockedUntil = 0;
	private lastInteractive = Number.NEGATIVE_INFINITY;

	constructor(
		public limit: number,
		public windowMs: number,
		private readonly clock: Pick<Clock, 'now'>,
	) {}

	async take(priority: Priority): Promise<Take> {
		const now = this.clock.now();
		if (this.blockedUntil > now) return { wait: this.blockedUntil - now };
		const span = this.windowMs + marginFor(this.windowMs);
		while (this.answered.length > 0 && this.answered[0] <= now - span) this.answered.shift();
		const answering = now - this.lastInteractive < RESERVE_WINDOWS * span;
		const cap = priority === 'bulk' && answering ? this.limit - reserveFor(this.limit) : this.limit;
		const used = this.answered.length + this.inFlight.size;
		if (used >= cap) {
			// The slot frees when the request `cap` places back leaves the window; if that one is
			// still unanswered, look again soon (its answer wakes the budget anyway).
			const frees = this.answered[used - cap];
			return {
				wait: frees === undefined ? pollFor(this.limit, span) : Math.max(1, frees + span - now),
			};
		}
		const slot = String(++this.taken);
		this.inFlight.add(slot);
		if (priority === 'interactive') this.lastInteractive = now;
		return { slot };
	}

	async settle(slot: string): Promise<void> {
		if (this.inFlight.delete(slot)) this.answered.push(this.clock.now());
	}

	async block(ms: number): Promise<void> {
		this.blockedUntil = Math.max(this.blockedUntil, this.clock.now() + ms);
	}

	tighten(limit: number, windowMs: number): void {
		this.limit = Math.min(this.limit, limit);
		this.windowMs = Math.max(this.windowMs, windowMs);
	}
}
