import type { Clock } from '../api/clock';
import type { ConversationRecord } from './conversation';
import type { ConversationStore } from './conversation-store';

/** A conversation record as last read or written by one drain, with the version to write over. */
export interface HeldRecord {
	record: ConversationRecord;
	version: number;
}

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
		private readonly held: HeldRecord,
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
		for (let attempt = 0; attempt < 5; attempt++) {
			const entry = this.held.record.outbox.find((e) => e.id === id);
			// Lost (expired by another process while this one stalled): nothing left to keep.
			if (!entry || entry.status !== 'sending' || entry.lease?.owner !== owner) return;
			const now = this.clock.now();
			entry.lease = { ...entry.lease, owner, until: now + leaseMs };
			const written = await this.conversations.write(key, this.held.record, this.held.version, now);
			if (written) {
				this.held.version = written.version;
				return;
			}
			const reloaded = await this.conversations.read(key);
			if (!reloaded.record) return;
			this.held.record = reloaded.record;
			this.held.version = reloaded.version;
		}
	}
}
