import type { Clock } from '../../api/clock';
import { FencedError, type RequestGuard } from '../../api/guard';
import type { ConversationStore } from './record-store';

/** The effect whose lease a fence guards: its conversation, its outbox id, its holder. */
export type LeaseTarget = { key: string; id: number; owner: string; leaseMs: number };

/**
 * How long before its lease runs out a worker stops trusting it: 5 s, or a quarter of a short
 * lease. Covers a renewal's write in flight and the time between the check and the request leaving.
 */
function fenceMargin(leaseMs: number): number {
	return Math.min(5000, leaseMs / 4);
}

/**
 * The fence of one held lease: no effect leaves once the lease is lost, or may be. A frozen
 * process (a long GC pause, a stopped container, a migrated VM) wakes with its timers due at once
 * and its lease long gone to another worker; it learns so from its own clocks before any request
 * leaves (the time since the last renewal it saw succeed), then from the store (the entry still
 * `sending` under its lease). Its one signal cancels what the effect waits for (the request
 * budget, a Retry-After, the request, a workflow call) as soon as the lease keeper finds the lease
 * lost. The own clock is the monotonic one (changes to the wall clock do not move it); the store's
 * lease time is read against the wall clock, which keeps counting while a host is suspended.
 */
export class Fence implements RequestGuard {
	private readonly controller = new AbortController();
	/** When the lease runs out, on the monotonic clock. */
	private deadline: number;

	constructor(
		private readonly conversations: ConversationStore,
		private readonly clock: Pick<Clock, 'now'>,
		readonly target: LeaseTarget,
		/** When the lease as written runs out (the entry's `lease.until`). */
		until: number,
		/** The process's monotonic clock (ms); tests pass a fake one. */
		private readonly monotonic: () => number = () => performance.now(),
	) {
		this.deadline = this.monotonic() + (until - this.clock.now());
	}

	get signal(): AbortSignal {
		return this.controller.signal;
	}

	/** Bound, so it can be handed on as a callback. */
	readonly check = async (): Promise<void> => {
		this.throwIfLost();
		if (!this.heldByOwnClock()) this.lose('its lease may have run out while it waited');
		const { record } = await this.conversations.read(this.target.key);
		const entry = record?.outbox.find((e) => e.id === this.target.id);
		if (entry?.status !== 'sending' || entry.lease?.owner !== this.target.owner)
			this.lose('another worker took its lease over');
		const margin = fenceMargin(this.target.leaseMs);
		if (entry.lease.until <= this.clock.now() + margin)
			this.lose('its lease in the store runs out before the request could be answered');
		// The read itself may have stalled.
		if (!this.heldByOwnClock()) this.lose('its lease may have run out while it waited');
	};

	/** The monotonic time a renewal starts at: its lease counts from there. */
	renewing(): number {
		return this.monotonic();
	}

	/** A renewal that started at `startedAt` (monotonic) was written. */
	renewed(startedAt: number): void {
		this.deadline = startedAt + this.target.leaseMs;
	}

	/** Whether the lease, by this process's own clock, still has more than the margin left. */
	heldByOwnClock(): boolean {
		return this.monotonic() + fenceMargin(this.target.leaseMs) < this.deadline;
	}

	/** The lease is lost, or may be: everything waiting on the signal stops. Throws. */
	lose(why: string): never {
		if (!this.controller.signal.aborted)
			this.controller.abort(
				new FencedError(
					`This worker no longer holds the lease on this action (${why}); another worker performs it`,
				),
			);
		this.throwIfLost();
		throw new FencedError(why);
	}

	get lost(): boolean {
		return this.controller.signal.aborted;
	}

	private throwIfLost(): void {
		if (this.controller.signal.aborted) throw this.controller.signal.reason as Error;
	}
}
