import type { Clock } from '../../api/clock';
import type { ConversationStore, Versioned } from './record-store';
import { AGAIN, BOUNDS, retry } from './retry';

/**
 * Waits `ms` of real time, or until `signal` aborts (then it may reject): n8n's `sleep` with a
 * signal inside n8n, a timer in the CLI and tests.
 */
export type CancellableWait = (ms: number, signal: AbortSignal) => Promise<void>;

/**
 * Keeps one effect's lease alive while it is performed. A reply can wait minutes for the request
 * budget (500 timers falling due at once, a 429's Retry-After): without renewal its lease would
 * run out and another process would take it for a crashed one, marking a reply still on its way
 * `unknown` and doing a tag update twice. Renewals write through `held`, so the drain's next write
 * builds on them.
 */
export class LeaseKeeper {
	private readonly stopped = new AbortController();
	private readonly loop: Promise<void>;

	constructor(
		private readonly conversations: ConversationStore,
		private readonly clock: Pick<Clock, 'now'>,
		private readonly target: { key: string; id: number; owner: string; leaseMs: number },
		private readonly held: Versioned,
		wait: CancellableWait,
	) {
		this.loop = this.renewEvery(wait);
	}

	/** Stops renewing once the effect's outcome is known; resolves after any renewal in flight. */
	async stop(): Promise<void> {
		this.stopped.abort();
		await this.loop;
	}

	private async renewEvery(wait: CancellableWait): Promise<void> {
		// A third of the lease: two renewals may fail or come late before it runs out.
		const every = Math.max(10, Math.floor(this.target.leaseMs / 3));
		for (;;) {
			await wait(every, this.stopped.signal).catch(() => undefined);
			if (this.stopped.signal.aborted) return;
			await this.renew().catch(() => undefined);
		}
	}

	private async renew(): Promise<void> {
		const { key, id, owner, leaseMs } = this.target;
		const held = this.held;
		const round = async (): Promise<void | typeof AGAIN> => {
			const entry = held.record.outbox.find((e) => e.id === id);
			// Lost (expired by another process while this one stalled): nothing left to keep.
			if (!entry || entry.status !== 'sending' || entry.lease?.owner !== owner) return;
			const now = this.clock.now();
			entry.lease = { ...entry.lease, owner, until: now + leaseMs };
			const written = await this.conversations.write(key, held.record, held.version, now);
			if (written) {
				held.version = written.version;
				return;
			}
			const reloaded = await this.conversations.read(key);
			if (!reloaded.record) return;
			held.record = reloaded.record;
			held.version = reloaded.version;
			return AGAIN;
		};
		await retry(BOUNDS.renewal, round, () => undefined);
	}
}
