import type { Clock } from '../api/clock';
import type { StateStore, WriteOptions } from '../stores/types';
import { HANDLED_LIMIT, isProblem, view, type ConversationRecord } from './conversation';
import type { ConversationStore, Loaded } from './conversation-store';
import type { HandleResult, LatePolicy } from './engine';
import { decodeInbound, nextInOrder, type Inbound } from './inbox';
import type { OutboxRunner, ScenarioApi } from './outbox';
import type { Stepper } from './stepper';
import type { ClientProfile } from './templates';

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
	reorderWindowMs: number;
	latePolicy: LatePolicy;
}

/**
 * Applies a conversation's inbox: one message at a time, the earliest-written first once the
 * reorder window has passed, each step saved by compare-and-set before its effects are performed,
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
		const { store, conversations, clock, reorderWindowMs } = this.options;
		const results: HandleResult[] = [];
		for (let round = 0; round < 10_000; round++) {
			// Asked together (one round trip to Redis); every store answers them in this order.
			const [queued, loaded] = await Promise.all([
				store.queued(this.namespace, key, 200),
				conversations.read(key),
			]);
			const entries = queued.map(decodeInbound);
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
			if (until !== undefined && !open.some((e) => e.message.message_id === until)) break;
			const next = nextInOrder(open);
			if (!next) break;
			// Held for the reorder window, so an earlier-written message still in flight goes first.
			const wait = next.at + reorderWindowMs - clock.now();
			if (wait > 0 && clock.sleep) {
				await clock.sleep(Math.min(wait, reorderWindowMs));
				continue;
			}
			// The step's write takes the message out of the inbox with it.
			const result = await this.applyOne(key, next, loaded);
			if (!result) continue; // another writer got there first: look again
			results.push(result);
			if (next.message.message_id === until) break;
		}
		return results;
	}

	/** Applies one message; undefined when another writer changed the conversation first. */
	private async applyOne(
		key: string,
		inbound: Inbound,
		loaded: Loaded,
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
		const stepped = this.options.stepper.stepMessage(record, message, profile, now);
		const lastSentAt = Math.max(record?.lastSentAt ?? -Infinity, sentAt ?? -Infinity);
		if (Number.isFinite(lastSentAt)) stepped.record.lastSentAt = lastSentAt;
		const { conversations, outbox } = this.options;
		// One write saves the step, takes the message out of the inbox and leases the first effect.
		const held = outbox.leaseFirst(stepped.record, now);
		const saved = await conversations.write(key, stepped.record, loaded.version, now, taken);
		if (!saved) return undefined;
		const { actions, record: latest } = await outbox.drain(key, saved, held);
		return {
			...stepped.outcome,
			status: late ? 'late' : stepped.outcome.status,
			late,
			messageId: message.message_id,
			conversation: view(latest),
			actions,
			problems: actions.filter(isProblem),
		};
	}

	/** A late message under "ignore" or "handoff": recorded as handled, nothing stepped. */
	private async setAsideLate(
		key: string,
		messageId: string,
		loaded: Loaded,
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
		const saved = await this.options.conversations.write(key, next, loaded.version, now, taken);
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
