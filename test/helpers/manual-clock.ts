/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling, never loaded by n8n */
/** A clock that moves only when a test advances it; sleepers wake in order of their deadline. */
export class ManualClock {
	private time = 0;
	private sleepers: Array<{ at: number; wake: () => void }> = [];

	now(): number {
		return this.time;
	}

	sleep(ms: number): Promise<void> {
		return new Promise((wake) => this.sleepers.push({ at: this.time + Math.max(0, ms), wake }));
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
}

/** Lets promise chains started by a wake-up run to their next wait. */
export async function settle(): Promise<void> {
	for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
}
