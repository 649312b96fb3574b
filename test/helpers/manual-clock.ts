/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling, never loaded by n8n */
/**
 * A clock that moves only when a test advances it; sleepers wake in order of their deadline.
 * It is a process's clocks too: `monotonic` moves with it, except when only the wall clock is
 * stepped (`stepWall`); `freeze` lets time pass as a SIGSTOP does (no sleeper wakes), and the next
 * `advance` wakes all that fell due meanwhile.
 */
export class ManualClock {
	private sleepers: Array<{ at: number; wake: () => void }> = [];
	/** How far the wall clock was stepped apart from the monotonic one. */
	private stepped = 0;

	constructor(private time = 0) {}

	now(): number {
		return this.time;
	}

	readonly monotonic = (): number => this.time - this.stepped;

	/** `signal`: the sleeper wakes at once when it fires. */
	sleep(ms: number, signal?: AbortSignal): Promise<void> {
		return new Promise((wake) => {
			const sleeper = { at: this.time + Math.max(0, ms), wake };
			this.sleepers.push(sleeper);
			signal?.addEventListener('abort', () => {
				this.sleepers = this.sleepers.filter((s) => s !== sleeper);
				wake();
			});
		});
	}

	/** Moves to `ms` later, waking each sleeper at its deadline and letting its work settle. */
	async advance(ms: number): Promise<void> {
		const target = this.time + ms;
		await settle();
		for (;;) {
			this.sleepers.sort((a, b) => a.at - b.at);
			const next = this.sleepers[0];
			if (!next || next.at > target) break;
			this.sleepers.shift();
			this.time = Math.max(this.time, next.at);
			next.wake();
			await settle();
		}
		this.time = target;
	}

	/** The process is stopped for `ms`: both clocks move on, nothing wakes until the next advance. */
	freeze(ms: number): void {
		this.time += ms;
	}

	/** Only the wall clock moves (set by hand, or the store's clock elsewhere). */
	stepWall(ms: number): void {
		this.time += ms;
		this.stepped += ms;
	}
}

/** Lets promise chains started by a wake-up run to their next wait. */
export async function settle(): Promise<void> {
	for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
}
