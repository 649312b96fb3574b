import type { Clock } from '../clock';
import { fencedBy } from '../guard';
import { PRIORITIES, type Priority, type SlotRequest, type SlotSource, type Take } from './types';

/** A granted slot: settle it once its request is answered (or failed), so it counts from then. */
export type Slot = { waitedMs: number; settle(): void };

type Next = { priority: Priority; lane: string; waiter: Waiter };

type Waiter = {
	asked: number;
	resolve: (slot: Slot) => void;
	reject: (error: unknown) => void;
	/** Stops listening to the caller's signal, once served or failed. */
	detach: () => void;
};

/**
 * One key's request budget in this process. Callers queue; one loop hands out slots from the
 * source as they free: the first waiting priority first, round the lanes within it, in order
 * within a lane. Which caller gets a slot is decided when the slot frees, not when the caller
 * arrived, so a reply that comes in behind a long job takes the next free slot, and a 429's block
 * holds back every caller already waiting.
 */
export class RequestBudget {
	private readonly queues = new Map<Priority, Map<string, Waiter[]>>(
		PRIORITIES.map((p) => [p, new Map()]),
	);
	private running = false;
	/** While the loop waits for a slot for a bulk caller: wakes it for a caller that goes first. */
	private sleeping: { priority: Priority; wake: () => void } | undefined;

	constructor(
		readonly source: SlotSource,
		private readonly clock: Clock,
	) {}

	/** Resolves when the request may be sent; rejects if `request.signal` fires first. */
	acquire(request: SlotRequest): Promise<Slot> {
		return new Promise((resolve, reject) => {
			const signal = request.signal;
			if (signal?.aborted) return reject(fencedBy(signal));
			const lanes = this.queues.get(request.priority) as Map<string, Waiter[]>;
			const waiter: Waiter = { asked: this.clock.now(), resolve, reject, detach: () => {} };
			if (signal) {
				const leave = () => this.leave(lanes, request.lane, waiter, fencedBy(signal));
				signal.addEventListener('abort', leave, { once: true });
				waiter.detach = () => signal.removeEventListener('abort', leave);
			}
			const lane = lanes.get(request.lane);
			if (lane) lane.push(waiter);
			else lanes.set(request.lane, [waiter]);
			const sleeping = this.sleeping;
			if (sleeping && PRIORITIES.indexOf(request.priority) < PRIORITIES.indexOf(sleeping.priority))
				sleeping.wake();
			void this.run();
		});
	}

	/** A caller that gave up leaves its lane; the slot it would have had goes to the next. */
	private leave(lanes: Map<string, Waiter[]>, lane: string, waiter: Waiter, why: Error): void {
		const waiters = lanes.get(lane);
		const at = waiters?.indexOf(waiter) ?? -1;
		if (!waiters || at < 0) return;
		waiters.splice(at, 1);
		if (waiters.length === 0) lanes.delete(lane);
		waiter.reject(why);
		// Nobody left to wait for a slot: the loop need not sleep on.
		if (this.waiting === 0) this.sleeping?.wake();
	}

	/** After a 429: every caller, waiting or to come, waits `ms` first. */
	block(ms: number): Promise<void> {
		return this.source.block(ms);
	}

	get waiting(): number {
		let count = 0;
		for (const lanes of this.queues.values())
			for (const lane of lanes.values()) count += lane.length;
		return count;
	}

	private async run(): Promise<void> {
		if (this.running) return;
		this.running = true;
		try {
			for (let next = this.next(); next; next = this.next()) {
				let take: Take;
				try {
					take = await this.source.take(next.priority, this.waitingAfter(next));
				} catch (error) {
					this.failAll(error);
					return;
				}
				if ('wait' in take) await this.pause(take.wait, next.priority);
				else this.serve(this.stillWaiting(next), take.slot);
			}
		} finally {
			this.running = false;
		}
	}

	/**
	 * Waits for the source, or less if a caller of a higher priority arrives (it may go now) or a
	 * request is answered (its slot may be the one waited for).
	 */
	private async pause(ms: number, priority: Priority): Promise<void> {
		// Woken early, the sleep is cancelled: no timer outlives the wait.
		const woken = new AbortController();
		await new Promise<void>((wake) => {
			this.sleeping = { priority, wake };
			void this.clock.sleep(ms, woken.signal).then(wake, wake);
		});
		woken.abort();
		this.sleeping = undefined;
	}

	/** The caller the next free slot goes to. */
	private next(): Next | undefined {
		for (const priority of PRIORITIES) {
			const lanes = this.queues.get(priority) as Map<string, Waiter[]>;
			for (const [lane, waiters] of lanes) return { priority, lane, waiter: waiters[0] };
		}
		return undefined;
	}

	/**
	 * The caller a slot taken for `next` goes to: `next`, or, if it gave up meanwhile, the next
	 * caller of its priority; none left, the slot goes unused (it counts, as if it were sent).
	 */
	private stillWaiting(next: Next): Next | undefined {
		if (this.queues.get(next.priority)?.get(next.lane)?.[0] === next.waiter) return next;
		const other = this.next();
		return other?.priority === next.priority ? other : undefined;
	}

	/** Hands the slot over and moves the lane to the back of its priority's round. */
	private serve(next: Next | undefined, slot: string): void {
		if (!next) {
			void this.source.settle(slot).catch(() => undefined);
			return;
		}
		const lanes = this.queues.get(next.priority) as Map<string, Waiter[]>;
		const waiters = lanes.get(next.lane) as Waiter[];
		waiters.shift();
		lanes.delete(next.lane);
		if (waiters.length > 0) lanes.set(next.lane, waiters);
		let settled = false;
		next.waiter.detach();
		next.waiter.resolve({
			waitedMs: this.clock.now() - next.waiter.asked,
			settle: () => {
				if (settled) return;
				settled = true;
				// Unsettled, the slot holds its place a little longer: never early, so no error here.
				void this.source.settle(slot).then(
					() => this.sleeping?.wake(),
					() => undefined,
				);
			},
		});
	}

	private waitingAfter(next: { priority: Priority; lane: string }): Set<Priority> {
		const waiting = new Set<Priority>();
		for (const [priority, lanes] of this.queues) {
			let count = 0;
			for (const lane of lanes.values()) count += lane.length;
			if (priority === next.priority) count--;
			if (count > 0) waiting.add(priority);
		}
		return waiting;
	}

	/** The source failed (a shared budget out of reach): every waiting caller hears why. */
	private failAll(error: unknown): void {
		for (const lanes of this.queues.values()) {
			for (const waiters of lanes.values())
				for (const w of waiters) {
					w.detach();
					w.reject(error);
				}
			lanes.clear();
		}
	}
}
