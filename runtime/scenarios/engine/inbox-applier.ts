import type { Clock } from '../../api/clock';
import type { StateStore, WriteOptions } from '../../stores/types';
import {
	checkFirst,
	HANDLED_LIMIT,
	timerCause,
	view,
	type ConversationRecord,
} from '../durability/record';
import type { ConversationStore, Loaded, Versioned } from '../durability/record-store';
import type { OutboxRunner } from '../durability/outbox';
import type { ScenarioApi } from '../durability/perform-effect';
import { AGAIN, BOUNDS, retry } from '../durability/retry';
import { noteStep, stepFacts } from '../analytics/step-notes';
import { decodeInbound, nextInOrder, type Inbound } from './inbox';
import type { HealContext } from './healing/need';
import { holdMs, type ArrivalHistory, type ReorderSettings } from './reorder-wait';
import type { HandleResult, LatePolicy } from './results';
import type { Stepper } from './stepper';
import type { ClientProfile } from '../format/templates';

export interface InboxApplierOptions {
	store: StateStore;
	conversations: ConversationStore;
	stepper: Stepper;
	outbox: OutboxRunner;
	api: ScenarioApi;
	clock: Pick<Clock, 'now'> & Partial<Pick<Clock, 'sleep'>>;
	readsClient: boolean;
	/** A scenario looks orders up: the client's record is read for every message step. */
	readsOrders?: boolean;
	/** How long a message may wait for an earlier-written one still on its way. */
	reorder: ReorderSettings;
	/** The recent arrivals of this inbox. */
	arrivals: ArrivalHistory;
	latePolicy: LatePolicy;
	/**
	 * Looks at the conversation as read before its next message is applied: true when it put
	 * messages from the client's history in the inbox (engine/healer.ts), which is then read again.
	 */
	heal?: (key: string, loaded: Loaded, context: HealContext) => Promise<boolean>;
	/**
	 * When the store's loss of writes was found, if it was: a message written before then may have
	 * been answered already, so its replies are looked for in the history before they are sent.
	 */
	lossFound?: () => number | undefined;
}

/**
 * Applies a conversation's inbox: one message at a time, the earliest-written first once no
 * earlier-written one can plausibly still be on its way (reorder-wait.ts), each step saved by compare-and-set before its effects are performed,
 * and the message taken out of the inbox after. Any execution or process may run it for any
 * conversation at any time: the compare-and-set decides who applies each message, once.
 */
export class InboxApplier {
	constructor(
		private readonly namespace: string,
		private readonly options: InboxApplierOptions,
	) {}

	/**
	 * Applies the conversation's inbox until `until` is applied (by this call or another) or,
	 * without it, until the inbox is empty.
	 */
	async apply(key: string, until?: string): Promise<HandleResult[]> {
		const results: HandleResult[] = [];
		const round = () => this.applyRound(key, until, results);
		return await retry(BOUNDS.rounds, round, () => results);
	}

	/** Applies the next message in order, once it need not wait for an earlier one. */
	private async applyRound(
		key: string,
		until: string | undefined,
		results: HandleResult[],
	): Promise<HandleResult[] | typeof AGAIN> {
		const { store, conversations, clock, reorder, arrivals } = this.options;
		// One round trip: the inbox read no later than the record (an entry applied meanwhile then
		// shows as handled in the record, and is taken out below).
		const { queued, loaded } = await conversations.readWithInbox(key, this.namespace, key, 200);
		// Messages carried from a former scope came in after the queue was read: read it again.
		if (loaded.moved) return AGAIN;
		const entries = queued.map(decodeInbound);
		// Messages healed from the client's history too (before anything newer is applied).
		const anchor = entries.find((e) => e.message.message_id === until)?.message;
		// The scheduled run (no message in hand) checks a stuck inbox as a delivery would be.
		const stuck = until === undefined ? latestWritten(entries) : undefined;
		const context = { anchor, queued: entries, stuck };
		if (this.options.heal && (await this.options.heal(key, loaded, context))) return AGAIN;
		const handled = new Set(loaded.record?.handled ?? []);
		const done = entries.filter((e) => handled.has(e.message.message_id));
		// Applied, but the process stopped before taking it out of the inbox.
		if (done.length > 0)
			await store.dequeue(
				this.namespace,
				key,
				done.map((e) => e.seq),
			);
		const open = entries.filter((e) => !handled.has(e.message.message_id));
		if (until !== undefined && !open.some((e) => e.message.message_id === until)) return results;
		const next = nextInOrder(open);
		if (!next) return results;
		// Held while an earlier-written message may still be in flight, so that it goes first.
		const held = { id: next.message.message_id, at: next.at, sentAt: next.sentAt };
		const wait = holdMs(held, reorder, arrivals, clock.now());
		if (wait > 0 && clock.sleep) {
			await clock.sleep(wait);
			return AGAIN;
		}
		// The step's write takes the message out of the inbox with it.
		const result = await this.applyOne(key, next, loaded);
		if (!result) return AGAIN; // another writer got there first: look again
		results.push(result);
		return next.message.message_id === until ? results : AGAIN;
	}

	/** Applies one message; undefined when another writer changed the conversation first. */
	private async applyOne(
		key: string,
		inbound: Inbound,
		loaded: Versioned<ConversationRecord | undefined>,
	): Promise<HandleResult | undefined> {
		const { message, sentAt } = inbound;
		const record = loaded.record;
		const now = this.options.clock.now();
		const taken = { namespace: this.namespace, queue: key, seqs: [inbound.seq] };
		const late =
			sentAt !== undefined && record?.lastSentAt !== undefined && sentAt < record.lastSentAt;
		if (late && this.options.latePolicy !== 'apply')
			return await this.setAsideLate(key, message.message_id, loaded, now, taken);
		const profile = await this.profileFor(record, message.client_id);
		const lossFound = this.options.lossFound?.();
		// Rebuilt after the store lost writes: stepped at the time it was written, after the silence
		// timers that fell due before it, so the conversation goes the way it went the first time.
		const rebuilt = lossFound !== undefined && sentAt !== undefined && sentAt < lossFound;
		const base = rebuilt ? firedBefore(this.options.stepper, record, sentAt) : record;
		const stepAt = rebuilt ? sentAt : now;
		const stepped = this.options.stepper.stepMessage(base, message, profile, stepAt);
		if (late) noteStep(stepped.record, { event: 'message', ...stepFacts(stepped.record), late });
		if (lossFound !== undefined && (sentAt ?? now) < lossFound)
			checkFirst(stepped.record, message.message_id, sentAt ?? now);
		const lastSentAt = Math.max(record?.lastSentAt ?? -Infinity, sentAt ?? -Infinity);
		if (Number.isFinite(lastSentAt)) stepped.record.lastSentAt = lastSentAt;
		// The client's latest-written message applied: where a healing reads the history on from.
		if (!late)
			stepped.record.lastInbound = {
				id: message.message_id,
				...(sentAt === undefined ? {} : { at: sentAt }),
			};
		// One write saves the step, takes the message out of the inbox and leases the first effect.
		const done = await this.options.outbox.commit(key, loaded, stepped.record, now, taken);
		if (!done) return undefined;
		return {
			...stepped.outcome,
			status: late ? 'late' : stepped.outcome.status,
			late,
			...(message.healed === true ? { healed: true as const } : {}),
			messageId: message.message_id,
			conversation: done.conversation,
			actions: done.actions,
			problems: done.problems,
		};
	}

	/** A message handled before: any effects it left unfinished are resumed. */
	async duplicate(key: string, messageId: string): Promise<HandleResult> {
		const { conversations, outbox } = this.options;
		const loaded = await conversations.read(key);
		const drained = loaded.record
			? await outbox.drain(key, { record: loaded.record, version: loaded.version })
			: undefined;
		return {
			status: 'duplicate',
			late: false,
			messageId,
			conversation: drained?.conversation,
			actions: drained?.actions ?? [],
			problems: drained?.problems ?? [],
			handoff: false,
		};
	}

	/** A late message under "ignore" or "handoff": recorded as handled, nothing stepped. */
	private async setAsideLate(
		key: string,
		messageId: string,
		loaded: Versioned<ConversationRecord | undefined>,
		now: number,
		taken: WriteOptions['dequeue'],
	): Promise<HandleResult | undefined> {
		const record = loaded.record as ConversationRecord;
		const context = record.snapshot.context;
		const handoff = this.options.latePolicy === 'handoff' && !record.ended && !context.handedOff;
		const next: ConversationRecord = {
			...record,
			handled: [...record.handled, messageId].slice(-HANDLED_LIMIT),
			snapshot: handoff
				? { ...record.snapshot, context: { ...context, handedOff: true } }
				: record.snapshot,
			timer: handoff ? null : record.timer,
			updatedAt: now,
		};
		const saved = await this.options.conversations.write(
			key,
			noteStep(next, { event: 'late' }),
			loaded.version,
			now,
			taken,
			{ before: record },
		);
		if (!saved) return undefined;
		return {
			status: 'late',
			late: true,
			messageId,
			conversation: view(saved.record),
			actions: [],
			problems: [],
			handoff,
		};
	}

	/**
	 * A live conversation keeps its profile; a new one reads it when a scenario needs it. Orders
	 * change while a conversation runs: with a scenario that looks them up, the record is read for
	 * every step (once), and only its orders are taken from it.
	 */
	private async profileFor(
		record: ConversationRecord | undefined,
		clientId: string,
	): Promise<ClientProfile> {
		const known = record?.snapshot.context.client;
		const { api, readsClient, readsOrders } = this.options;
		if (known && !record.ended && !(readsOrders && api.getClient)) return known;
		if (!readsClient || !api.getClient) return known ?? { id: clientId, tags: [] };
		const found = await api.getClient(clientId);
		const orders = Array.isArray(found.orders) ? { orders: found.orders } : {};
		if (known && !record.ended) return { ...known, ...orders };
		return {
			...orders,
			id: found.id,
			first_name: found.first_name ?? null,
			last_name: found.last_name ?? null,
			email: found.email ?? null,
			phone: found.phone ?? null,
			tags: [...(found.tags ?? [])],
			custom_fields: found.custom_fields ?? null,
		};
	}
}

/** The inbox's latest-written message (by the client's own time), if any carries one. */
function latestWritten(entries: readonly Inbound[]): Inbound['message'] | undefined {
	let latest: Inbound | undefined;
	for (const entry of entries)
		if (entry.sentAt !== undefined && entry.sentAt > (latest?.sentAt ?? -Infinity)) latest = entry;
	return latest?.message;
}

/** The step's replies are looked for in the client's history from `since` before they are sent. */
/** The most silence timers fired in place before one rebuilt message (a chain of them). */
const TIMERS_IN_PLACE = 10;

/**
 * The record after the silence timers due before `at` fired, each at its own time, their replies
 * looked for in the history before they are sent (they went out before the loss).
 */
function firedBefore(
	stepper: Stepper,
	record: ConversationRecord | undefined,
	at: number,
): ConversationRecord | undefined {
	let current = record;
	for (let i = 0; i < TIMERS_IN_PLACE && current?.timer && current.timer.dueAt <= at; i++) {
		const dueAt = current.timer.dueAt;
		current = stepper.afterTimer(current, dueAt);
		checkFirst(current, timerCause(dueAt), dueAt);
	}
	return current;
}
