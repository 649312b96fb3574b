import type { Clock } from '../../../api/clock';
import { lossNotice } from '../../../stores/loss';
import type { StateStore } from '../../../stores/types';
import type { ConversationRecord, HealingNote } from '../../durability/record';
import type { CancellableWait } from '../../durability/lease-keeper';
import type { ConversationStore, Loaded } from '../../durability/record-store';
import type { ScenarioApi } from '../../durability/perform-effect';
import { AGAIN, BOUNDS, retry } from '../../durability/retry';
import type { HealingSession } from './session';
import { readHistory } from './history-read';
import { missingFrom, type InboundItem, type Placement } from './missing';
import { newcomerPlacement, recordNeeds, type HealContext, type NeedFacts } from './need';
import { encodeInbound, inboxClaims, type MessageReceived } from '../inbox';

export interface HealerOptions {
	store: StateStore;
	/** The scope's inbox namespace, and where its conversations are noted active. */
	inbox: string;
	active: string;
	conversations: ConversationStore;
	api: ScenarioApi;
	clock: Pick<Clock, 'now'> & Partial<Pick<Clock, 'sleep'>>;
	session: HealingSession;
	/** How recently a conversation must have been active to be healed (default 15 minutes). */
	horizonMs: number;
	dedupeTtlMs: number;
	/** A real-time wait: how a message is kept from waiting on a slow history for ever. */
	wait?: CancellableWait;
}

/** What one healing did, for the output of the call that ran it. */
export type HealReport = Omit<HealingNote, 'at'> & {
	conversation: string;
	off?: string;
	/** Healed after the store lost writes (when that was found): a rebuild from the history. */
	afterLoss?: string;
};

/**
 * The scheduled run heals no conversation in the first seconds of a session: a service that
 * lists a client's message a moment after it was written (A39) has listed what n8n answered
 * while starting by then.
 */
const SWEEP_AFTER_START_MS = 5000;
/**
 * The longest a message waits for its conversation's healing; past it, it is applied and
 * what the healing still heals comes after it (late, reported).
 */
const HEAL_WAIT_MS = 60_000;
/** A history that could not be read is read again for the conversation after this long, not before. */
const REREAD_AFTER_MS = 5000;
/** A history with no client messages turns healing off only for a conversation quiet this long. */
const OFF_AFTER_MS = 60_000;

/**
 * Heals conversations from the client's message history after a restart or a takeover: once per
 * conversation and process, when the conversation was active within the horizon before this
 * process began (or a worker's lease on it ran out), the history is read once and the client's
 * messages it shows and the conversation never applied go into the inbox under the same claims
 * as deliveries (a delivery of one later is a duplicate), to be applied in the client's order
 * before anything newer. What the history cannot place is noted in the record and left to Late
 * Messages.
 */
export class Healer {
	private readonly reports = new Map<string, HealReport>();

	constructor(private readonly o: HealerOptions) {}

	get session(): HealingSession {
		return this.o.session;
	}

	/** Without a history to read there is nothing to heal from: no notes, no reads. */
	private get enabled(): boolean {
		return this.o.api.iterateClientMessages !== undefined;
	}

	/**
	 * A delivery of the conversation is being handled: the process serves webhooks. Notes the
	 * conversation active, at most every quarter of the horizon per process.
	 */
	async note(key: string): Promise<void> {
		const { session, horizonMs } = this.o;
		if (!this.enabled) return;
		const now = this.o.clock.now();
		session.firstDelivery ??= now;
		if (now - (session.noted.get(key) ?? -Infinity) < horizonMs / 4) return;
		session.noted.set(key, now);
		session.prune(now - horizonMs / 4);
		await this.o.store.noteActive(this.o.active, key, now, horizonMs);
	}

	/**
	 * Heals the conversation if it needs it, given its record and inbox as just read. True when
	 * messages were put in its inbox (read it again). A second caller in this process waits for the
	 * first.
	 */
	async check(key: string, loaded: Loaded, context: HealContext = {}): Promise<boolean> {
		const { session } = this.o;
		if (!this.enabled || session.off) return false;
		// Asked before the decision, which is made at once: a second caller then sees the first running.
		const followsAnother = loaded.record ? undefined : await this.followsAnother();
		const running = session.running.get(key);
		if (running) return await this.bounded(running);
		// The history could not be read a moment ago: not read again at once (reported then).
		const failedAt = session.unread.get(key);
		if (failedAt !== undefined && this.o.clock.now() - failedAt < REREAD_AFTER_MS) return false;
		const facts: NeedFacts = { ...this.o, now: this.o.clock.now(), followsAnother };
		const record = loaded.record;
		if (record) adoptReading(session, key, record);
		const need = record && recordNeeds(key, record, facts, context);
		// A lease that ran out is looked at once: noted here, the decision itself writes nothing.
		if (need?.why === 'takeover') session.takeovers.add(need.takeover);
		const placement = record ? need && record : newcomerPlacement(key, context, facts);
		if (!placement) return false;
		const run = this.heal(key, placement, record, context.anchor).finally(() =>
			session.running.delete(key),
		);
		session.running.set(key, run);
		return await this.bounded(run);
	}

	/**
	 * Whether another process noted conversations of this scope active within the horizon before
	 * this one began (asked once per process): its deliveries may have failed as it stopped.
	 */
	private async followsAnother(): Promise<boolean> {
		const { session, store, horizonMs } = this.o;
		session.followsAnother ??= store
			.active(this.o.active, session.startedAt - horizonMs, session.noted.size + 1)
			.then((keys) => keys.some((key) => !session.noted.has(key)));
		return await session.followsAnother;
	}

	/** The healing's outcome, or false once HEAL_WAIT_MS has passed (it goes on). */
	private async bounded(run: Promise<boolean>): Promise<boolean> {
		const { wait } = this.o;
		if (!wait) return await run;
		const done = new AbortController();
		const timeout = wait(HEAL_WAIT_MS, done.signal).then(
			() => false,
			() => false,
		);
		try {
			return await Promise.race([run, timeout]);
		} finally {
			done.abort();
		}
	}

	/**
	 * Reads the record and heals it if it needs it (the scheduled run's way in). A conversation
	 * this process has written since it began never needs it again: it is not looked at again.
	 */
	async ensure(key: string): Promise<boolean> {
		const { session } = this.o;
		if (!this.enabled || session.off) return false;
		const loaded = await this.o.conversations.read(key);
		const healed = await this.check(key, loaded, { activeBefore: true });
		const record = loaded.record;
		// Written since this process began: the sweep need not look again. Not a reading of the
		// history (a delivery's own check still decides on the healing mark alone).
		if (!record || record.updatedAt >= session.startedAt) session.swept.add(key);
		return healed;
	}

	/**
	 * Takes in a loss of writes the store found (once): the session begins again, and every
	 * conversation this process noted active is noted again, so the scheduled run rebuilds those
	 * the store no longer knows. The notice for the output, the first time.
	 */
	async takeLoss(): Promise<string | undefined> {
		const { session, store, horizonMs } = this.o;
		const loss = await store.lostWrites();
		if (!loss || !this.enabled || !session.restartAfterLoss(loss)) return undefined;
		for (const [key, at] of session.noted)
			if (loss.foundAt - at <= horizonMs) await store.noteActive(this.o.active, key, at, horizonMs);
		return lossNotice('the state store', loss);
	}

	/** Conversations noted active within the horizon that this process has not healed. */
	async recentlyActive(now: number, limit: number): Promise<string[]> {
		const { session, horizonMs } = this.o;
		const since = now - session.startedAt;
		if (!this.enabled || session.off || since < SWEEP_AFTER_START_MS) return [];
		// Past the horizon no record written before the start is recent enough: nothing left to heal.
		if (since > horizonMs) {
			session.healedAt.clear();
			session.swept.clear();
			return [];
		}
		const keys = await this.o.store.active(this.o.active, now - this.o.horizonMs, limit);
		const { healedAt, swept } = this.o.session;
		return keys.filter((key) => !healedAt.has(key) && !swept.has(key));
	}

	/** The report of a healing this engine ran for the conversation, once. */
	takeReport(key: string): HealReport | undefined {
		const report = this.reports.get(key);
		this.reports.delete(key);
		return report;
	}

	private async heal(
		key: string,
		placement: Placement,
		/** The record placed against; none for a newcomer (nothing to note the outcome in). */
		record: ConversationRecord | undefined,
		anchor?: MessageReceived,
	): Promise<boolean> {
		const { session, store, clock } = this.o;
		const readAt = clock.now();
		const report: HealReport = { conversation: key, healed: [], unplaced: 0 };
		if (session.lossFound !== undefined)
			report.afterLoss = new Date(session.lossFound).toISOString();
		this.reports.set(key, report);
		let history: InboundItem[];
		try {
			history = await readHistory(this.o, placement, anchor);
		} catch (error) {
			report.error = `the client's history could not be read: ${(error as Error).message}`;
			session.unread.set(key, clock.now());
			if (record) await this.keep(key, report);
			return false;
		}
		const missing = missingFrom(history, placement);
		// No client message at all, not even those applied a while ago: the service does not list them.
		if (record && missing.inbound === 0 && clock.now() - record.updatedAt > OFF_AFTER_MS) {
			session.off ??=
				"healing from the history is off: the client's message history shows no messages from clients";
			report.off = session.off;
			return false;
		}
		for (const message of missing.messages) {
			const seq = await store.enqueue(
				this.o.inbox,
				key,
				inboxClaims(message.message_id),
				encodeInbound(message),
				this.o.dedupeTtlMs,
			);
			if (seq !== null) report.healed.push(message.message_id);
		}
		// Healed as of the reading, once what it showed is stored: a failed write leaves no mark.
		session.healedAt.set(key, readAt);
		session.unread.delete(key);
		report.unplaced = missing.unplaced;
		if (missing.unplaceable) report.error = missing.unplaceable;
		// Kept even when nothing was missing: the other processes then trust this reading.
		if (record) await this.keep(key, report, readAt);
		return report.healed.length > 0;
	}

	/** Writes what the healing did into the record, for Get Conversation. */
	private async keep(key: string, report: HealReport, readAt?: number): Promise<void> {
		const { conversations, clock } = this.o;
		const note: HealingNote = {
			at: clock.now(),
			...(readAt !== undefined ? { readAt } : {}),
			healed: report.healed,
			unplaced: report.unplaced,
			...(report.error ? { error: report.error } : {}),
		};
		const round = async () => {
			const loaded = await conversations.read(key);
			if (!loaded.record) return undefined;
			const written = await conversations.write(
				key,
				{ ...loaded.record, healing: note },
				loaded.version,
				clock.now(),
			);
			return written ? undefined : AGAIN;
		};
		await retry(BOUNDS.write, round, () => undefined);
	}
}

/**
 * Another process's reading of the history, stored in the record after this session began: as
 * good as this process's own (it placed what the history showed before it), so not read again.
 */
function adoptReading(session: HealingSession, key: string, record: ConversationRecord): void {
	const readAt = record.healing?.readAt;
	if (readAt === undefined || readAt < session.startedAt) return;
	if ((session.healedAt.get(key) ?? -Infinity) < readAt) session.healedAt.set(key, readAt);
}
