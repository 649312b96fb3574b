/**
 * Runs tasks one at a time per key, in the order they were queued, and tasks of different keys
 * side by side: one client's messages in arrival order, different clients in parallel.
 */
export class KeyedQueue {
	private readonly tails = new Map<string, Promise<void>>();

	run<T>(key: string, task: () => Promise<T>): Promise<T> {
		const previous = this.tails.get(key) ?? Promise.resolve();
		const result = previous.then(task);
		// The next task waits for this one to settle, whether it succeeded or not.
		const tail = result.then(
			() => undefined,
			() => undefined,
		);
		this.tails.set(key, tail);
		void tail.then(() => {
			if (this.tails.get(key) === tail) this.tails.delete(key);
		});
		return result;
	}

	/** Keys with a task queued or running. */
	get size(): number {
		return this.tails.size;
	}
}
