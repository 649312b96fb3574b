/* eslint-disable @n8n/community-nodes/no-restricted-globals -- emulator tooling: runs in plain Node, never loaded by n8n */

/**
 * The emulator's notion of time. Virtual time = real time x scale + offset, so a test can run
 * the webhook retry schedule (1, 5, 15 minutes) in milliseconds, either by scaling time or by
 * advancing it explicitly through the admin API.
 */
type Task = { due: number; seq: number; run: () => Promise<void> };

export class VirtualClock {
	private realBase = Date.now();
	private virtualBase = Date.now();
	private scale: number;
	private tasks: Task[] = [];
	private seq = 0;
	private timer: NodeJS.Timeout | undefined;
	private running = new Set<Promise<void>>();
	private closed = false;

	constructor(scale = 1) {
		this.scale = scale;
	}

	now(): number {
		return Math.floor(this.virtualBase + (Date.now() - this.realBase) * this.scale);
	}

	iso(): string {
		return new Date(this.now()).toISOString();
	}

	getScale(): number {
		return this.scale;
	}

	setScale(scale: number): void {
		this.virtualBase = this.now();
		this.realBase = Date.now();
		this.scale = scale;
		this.arm();
	}

	/** Schedules work at a virtual instant; it runs when real time or an advance reaches it. */
	schedule(due: number, run: () => Promise<void>): void {
		this.tasks.push({ due, seq: this.seq++, run });
		this.tasks.sort((a, b) => a.due - b.due || a.seq - b.seq);
		this.arm();
	}

	pendingTasks(): number {
		return this.tasks.length;
	}

	/** Moves virtual time forward and runs (and awaits) every task that became due. */
	async advance(ms: number): Promise<number> {
		this.virtualBase += ms;
		const ran = await this.runDue();
		this.arm();
		return ran;
	}

	/** Resolves once no scheduled task is executing right now. */
	async idle(): Promise<void> {
		while (this.running.size > 0) await Promise.allSettled([...this.running]);
	}

	/** Drops every scheduled task (an emulator reset); time itself is left as it is. */
	clear(): void {
		this.tasks = [];
		this.arm();
	}

	close(): void {
		this.closed = true;
		this.tasks = [];
		if (this.timer) clearTimeout(this.timer);
	}

	private async runDue(): Promise<number> {
		let ran = 0;
		const batch: Promise<void>[] = [];
		while (this.tasks.length > 0 && this.tasks[0].due <= this.now()) {
			const task = this.tasks.shift() as Task;
			const p = task.run().finally(() => this.running.delete(p));
			this.running.add(p);
			batch.push(p);
			ran++;
		}
		await Promise.allSettled(batch);
		return ran;
	}

	private arm(): void {
		if (this.timer) clearTimeout(this.timer);
		this.timer = undefined;
		if (this.closed || this.tasks.length === 0) return;
		const realDelay = Math.max(0, (this.tasks[0].due - this.now()) / this.scale);
		// Timers beyond ~24 days overflow; re-arm in steps instead.
		this.timer = setTimeout(
			() => {
				void this.runDue().then(() => this.arm());
			},
			Math.min(realDelay, 2 ** 30),
		);
		this.timer.unref();
	}
}
