import type { LostWrites } from '../../../stores/loss';
import type { StateStore } from '../../../stores/types';
import type { Clock } from '../../../api/clock';
import type { ScenarioApi } from '../../durability/perform-effect';
import type { HistoryItem, HistoryRead } from '../../durability/sent-check';

/**
 * What one process knows of healing for one scope: when it started working on it, which
 * conversations it has healed from the client's history, which healing is running now
 * (so a second execution of the same conversation waits for it instead of reading again), and
 * whether the history turned out to show no client messages at all (healing off). Kept per store
 * and scope, in the process's memory: a restart starts a new session, which is the point.
 */
export class HealingSession {
	/**
	 * Conversations healed, each with when the history was read (ms): set only once what that
	 * reading showed is stored.
	 */
	readonly healedAt = new Map<string, number>();
	/** Conversations whose history could not be read, each with when (ms): not healed. */
	readonly unread = new Map<string, number>();
	/** Conversations the scheduled run found written since this process began: not swept again. */
	readonly swept = new Set<string>();
	/**
	 * When this process first handled a delivery. n8n may run scheduled work before it serves
	 * webhooks (a slow start answers them 404 or not at all): a healing before then is
	 * provisional, made again on the conversation's first delivery.
	 */
	firstDelivery?: number;
	/** Expired leases already looked at: `key@until`. */
	readonly takeovers = new Set<string>();
	readonly running = new Map<string, Promise<boolean>>();
	/** When this process last noted each conversation active (ms). */
	readonly noted = new Map<string, number>();
	/** Why healing is off in this process, once the history showed no client messages. */
	off?: string;
	/** The node says "healing off" once. */
	offSaid = false;
	/** Whether another process served this scope shortly before this one began (asked once). */
	followsAnother?: Promise<boolean>;
	/** History reads made for healing, for the figures. */
	reads = 0;

	/** When the store's loss of writes this session took in was found (once per loss). */
	lossFound?: number;
	/**
	 * The bot's replies each client's history showed, read after the loss was found (ms): every
	 * reply that went out before the loss is in it, so the rebuilt replies are looked for there
	 * instead of in a new reading each (the service's request budget is 100 a minute).
	 */
	readonly repliesRead = new Map<string, { readAt: number; replies: HistoryItem[] }>();

	constructor(public startedAt: number) {}

	/**
	 * Begins again after the store lost acknowledged writes: everything written before is as after
	 * a restart (healed from the history before it is trusted), and every conversation this process
	 * noted active counts as known before. False when this loss was taken in already.
	 */
	restartAfterLoss(loss: LostWrites): boolean {
		if (this.lossFound === loss.foundAt) return false;
		this.lossFound = loss.foundAt;
		this.startedAt = loss.foundAt;
		this.firstDelivery = loss.foundAt;
		this.healedAt.clear();
		this.swept.clear();
		this.unread.clear();
		this.repliesRead.clear();
		this.followsAnother = Promise.resolve(true);
		return true;
	}

	/** After a loss, the bot's replies a reading made since it was found showed, for the rebuilt replies' checks. */
	keepReplies(clientId: string, readAt: number, items: readonly HistoryItem[]): void {
		if (this.lossFound === undefined || readAt < this.lossFound) return;
		const replies = items.filter((item) => item.direction !== 'inbound');
		this.repliesRead.set(clientId, { readAt, replies });
	}

	/** The reason healing is off, the first time it is asked for after it went off. */
	takeOffNotice(): string | undefined {
		if (!this.off || this.offSaid) return undefined;
		this.offSaid = true;
		return this.off;
	}

	private pruneAt = 10_000;

	/**
	 * Forgets notes older than `before` once many are kept (the note is written again then); the
	 * next time only once twice as many are kept, so a large active set is not walked each time.
	 */
	prune(before: number): void {
		if (this.noted.size < this.pruneAt) return;
		for (const [key, at] of this.noted) if (at < before) this.noted.delete(key);
		for (const [client, { readAt }] of this.repliesRead)
			if (readAt < before) this.repliesRead.delete(client);
		this.pruneAt = Math.max(10_000, 2 * this.noted.size);
	}
}

const sessions = new WeakMap<StateStore, Map<string, HealingSession>>();

/**
 * The session of this process for a store and scope, begun when an engine first uses them: every
 * record written before then was written by another process (a previous run of this one, in
 * regular mode), which may have died with messages it never saw.
 */
export function healingSessionOf(store: StateStore, scope: string, now: number): HealingSession {
	let byScope = sessions.get(store);
	if (!byScope) sessions.set(store, (byScope = new Map()));
	let session = byScope.get(scope);
	if (!session) byScope.set(scope, (session = new HealingSession(now)));
	return session;
}

/**
 * After a loss, the client's history a rebuilt reply is looked for in: the reading already made
 * after the loss was found (every reply that went out before the loss is in it), or a new one,
 * read whole and kept for the client's next rebuilt reply. Undefined before any loss.
 */
export function repliesKnown(
	session: HealingSession,
	clientId: string,
	{ api, clock }: { api: ScenarioApi; clock: Pick<Clock, 'now'> },
): HistoryRead | undefined {
	const read = api.iterateClientMessages?.bind(api);
	const lossFound = session.lossFound;
	if (lossFound === undefined) return undefined;
	const known = session.repliesRead.get(clientId);
	if (known && known.readAt >= lossFound)
		return async function* () {
			yield* known.replies;
		};
	if (!read) return undefined;
	return async function* (id, options) {
		const readAt = clock.now();
		const items: HistoryItem[] = [];
		for await (const item of read(id, options)) items.push(item);
		session.keepReplies(clientId, readAt, items);
		yield* items;
	};
}
