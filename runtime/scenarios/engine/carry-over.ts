import type { StateStore } from '../../stores/types';
import { decodeRecord } from '../durability/record';
import type { ConversationStore, Loaded } from '../durability/record-store';
import { decodeInbound, inboxClaims, inboxNamespace } from './inbox';
import { recordsNamespace } from './scope';

/**
 * How conversations kept where older versions put them (a workflow's id) move to their scope
 * (`scope.ts`).
 */

export interface CarryOverOptions {
	/** The scope's conversations and inbox namespace. */
	to: { conversations: ConversationStore; inbox: string };
	clock: { now(): number };
	/** How long a moved message's id stays claimed in the new inbox. */
	dedupeTtlMs: number;
}

/**
 * Carries a conversation from a former scope (the workflow id older versions kept conversations
 * under) on first use. The new record is written by compare-and-set with expected version 0 (it
 * must not exist) with its due mark and unfinished effects, then the old one removed by its
 * version; inbox entries move first, each appended to the new inbox under its message id's claim
 * (a copy already there, or already applied, is refused) and then taken out of the old one. So a
 * crash at any point leaves at most two copies of a record, the new one preferred by every reader,
 * and no message twice; the scheduled run's sweep clears what a crash left behind.
 */
export class CarryOver {
	private readonly from: { records: string; inbox: string };
	private readonly to: CarryOverOptions['to'];

	constructor(
		private readonly store: StateStore,
		formerScope: string,
		private readonly options: CarryOverOptions,
	) {
		this.from = { records: recordsNamespace(formerScope), inbox: inboxNamespace(formerScope) };
		this.to = options.to;
		// Every read of a key the scope lacks comes here first.
		this.to.conversations.fallback = async (key) => await this.read(key);
	}

	/**
	 * The conversation for a key absent from its scope: carried over when the former scope has it
	 * (or has messages for it), else absent.
	 */
	async read(key: string): Promise<Loaded> {
		const [old, moved] = await Promise.all([
			this.store.read(this.from.records, key),
			this.moveInbox(key),
		]);
		const absent: Loaded = { record: undefined, version: 0, ...(moved ? { moved } : {}) };
		if (!old) return absent;
		const record = decodeRecord(old.value);
		const saved = await this.to.conversations.write(key, record, 0, this.options.clock.now());
		// Written, or another process carried it (or started it) first: either way the old one goes.
		await this.store.remove(this.from.records, key, old.version);
		if (saved) return { ...saved, moved: true };
		const current = await this.store.read(this.to.conversations.namespace, key);
		return current
			? { record: decodeRecord(current.value), version: current.version, moved: true }
			: absent;
	}

	/**
	 * The former scope's conversations the scheduled run must look at: those with a timer or an
	 * unfinished effect due, and those with a message accepted before `stalledBefore` and never
	 * applied.
	 */
	async leftovers(now: number, stalledBefore: number, limit: number): Promise<string[]> {
		const [due, stalled] = await Promise.all([
			this.store.due(this.from.records, now, limit),
			this.store.stalled(this.from.inbox, stalledBefore, limit),
		]);
		return [...new Set([...stalled, ...due])];
	}

	/**
	 * The scheduled run's part: settles each leftover of the former scope, each in its
	 * conversation's turn (`inTurn`). The keys looked at, and how many records were carried.
	 */
	async sweep(
		now: number,
		stalledBefore: number,
		limit: number,
		inTurn: <T>(key: string, work: () => Promise<T>) => Promise<T | undefined>,
	): Promise<{ keys: string[]; carried: number }> {
		const keys = await this.leftovers(now, stalledBefore, limit);
		const settled = await Promise.all(keys.map((key) => inTurn(key, () => this.settle(key))));
		return { keys, carried: settled.filter((carried) => carried === true).length };
	}

	/**
	 * Settles one leftover: carried over when its scope has no record yet; otherwise (a crash
	 * between the two writes, or a duplicate workflow's copy) its messages move and the old record
	 * goes. True when a record was carried.
	 */
	async settle(key: string): Promise<boolean> {
		const current = await this.store.read(this.to.conversations.namespace, key);
		if (!current) return (await this.read(key)).record !== undefined;
		await this.moveInbox(key);
		const old = await this.store.read(this.from.records, key);
		if (old) await this.store.remove(this.from.records, key, old.version);
		return false;
	}

	/** Moves the key's accepted messages to the new inbox, in their order; true when any were there. */
	private async moveInbox(key: string): Promise<boolean> {
		const entries = await this.store.queued(this.from.inbox, key, 200);
		if (entries.length === 0) return false;
		for (const entry of entries) {
			const { message } = decodeInbound(entry);
			await this.store.enqueue(
				this.to.inbox,
				key,
				inboxClaims(message.message_id),
				entry.value,
				this.options.dedupeTtlMs,
			);
		}
		await this.store.dequeue(
			this.from.inbox,
			key,
			entries.map((e) => e.seq),
		);
		return true;
	}
}
