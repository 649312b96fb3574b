import type { Clock } from '../clock';
import { PRIORITIES, type Priority, type SlotRequest, type SlotSource, type Take } from './types';

/** A granted slot: settle it once its request is answered (or failed), so it counts from then. */
export type Slot = { waitedMs: number; settle(): void };

type Waiter = {
	asked: number;
	resolve: (slot: Slot) => void;
	reject: (error: unknown) => void;
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

	/** Resolves when the request may be sent. */
	acquire(request: SlotRequest): Promise<Slot> {
		return new Promise((resolve, reject) => {
			const lanes = this.queues.get(request.priority) as Map<string, Waiter[]>;
			const lane = lanes.get(request.lane);
			const waiter = { asked: this.clock.now(), resolve, reject };
			if (lane) lane.push(waiter);
			else lanes.set(request.lane, [waiter]);
			const sleeping = this.sleeping;
			if (sleeping && PRIORITIES.indexOf(request.priority) < PRIORITIES.indexOf(sleeping.priority))
				sleeping.wake();
			void this.run();
		});
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
				else this.serve(next, take.slot);
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
		await new Promise<void>((wake) => {
			this.sleeping = { priority, wake };
			void this.clock.sleep(ms).then(wake);
		});
		this.sleeping = undefined;
	}

	/** The caller the next free slot goes to. */
	private next(): { priority: Priority; lane: string; waiter: Waiter } | undefined {
		for (const priority of PRIORITIES) {
			const lanes = this.queues.get(priority) as Map<string, Waiter[]>;
			for (const [lane, waiters] of lanes) return { priority, lane, waiter: waiters[0] };
		}
		return undefined;
	}

	/** Hands the slot over and moves the lane to the back of its priority's round. */
	private serve(next: { priority: Priority; lane: string; waiter: Waiter }, slot: string): void {
		const lanes = this.queues.get(next.priority) as Map<string, Waiter[]>;
		const waiters = lanes.get(next.lane) as Waiter[];
		waiters.shift();
		lanes.delete(next.lane);
		if (waiters.length > 0) lanes.set(next.lane, waiters);
		let settled = false;
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
			for (const waiters of lanes.values()) for (const w of waiters) w.reject(error);
			lanes.clear();
		}
	}
}
