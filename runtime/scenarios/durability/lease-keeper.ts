import type { Clock } from '../../api/clock';
import type { Fence } from './fence';
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
 * builds on them. When a renewal finds the lease gone (another worker took it over while this one
 * was frozen), or this process's own clock says it may be gone (renewals failed, or came too late),
 * the fence fires: whatever the effect waits for is cancelled, and nothing more is sent.
 */
export class LeaseKeeper {
	private readonly stopped = new AbortController();
	private readonly loop: Promise<void>;

	constructor(
		private readonly conversations: ConversationStore,
		private readonly clock: Pick<Clock, 'now'>,
		private readonly fence: Fence,
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
		const every = Math.max(10, Math.floor(this.fence.target.leaseMs / 3));
		for (;;) {
			await wait(every, this.stopped.signal).catch(() => undefined);
			if (this.stopped.signal.aborted || this.fence.lost) return;
			// Woken late (frozen, starved): the lease may be another worker's already.
			if (!this.fence.heldByOwnClock()) return this.lose('its lease may have run out meanwhile');
			// A failed renewal (the store out of reach) is tried again; the own clock ends it.
			const kept = await this.renew().catch(() => true);
			if (!kept) return this.lose('another worker took its lease over');
		}
	}

	private lose(why: string): void {
		try {
			this.fence.lose(why);
		} catch {
			// The fence's signal carries it to whatever waits.
		}
	}

	/** False when the lease is found lost. */
	private async renew(): Promise<boolean> {
		const { key, id, owner, leaseMs } = this.fence.target;
		const held = this.held;
		const round = async (): Promise<boolean | typeof AGAIN> => {
			const entry = held.record.outbox.find((e) => e.id === id);
			// Lost: expired by another process while this one stalled.
			if (!entry || entry.status !== 'sending' || entry.lease?.owner !== owner) return false;
			const startedAt = this.fence.renewing();
			const now = this.clock.now();
			entry.lease = { ...entry.lease, owner, until: now + leaseMs };
			const written = await this.conversations.write(key, held.record, held.version, now);
			if (written) {
				held.version = written.version;
				this.fence.renewed(startedAt);
				return true;
			}
			const reloaded = await this.conversations.read(key);
			if (!reloaded.record) return false;
			held.record = reloaded.record;
			held.version = reloaded.version;
			return AGAIN;
		};
		return await retry(BOUNDS.renewal, round, () => true);
	}
}
