import type { Clock } from '../../api/clock';
import {
	isProblem,
	report,
	view,
	type ActionReport,
	type ConversationRecord,
	type ConversationView,
	type OutboxEntry,
} from './record';
import { LOST_CALL, type WorkflowPort } from './workflow-call';
import type { HistoryRead } from './sent-check';
import type { ConversationStore, Versioned } from './record-store';
import { Fence } from './fence';
import { LeaseKeeper, type CancellableWait } from './lease-keeper';
import { performEffect, type Performed, type ScenarioApi } from './perform-effect';
import { AGAIN, BOUNDS, retry } from './retry';

export interface OutboxOptions {
	conversations: ConversationStore;
	api: ScenarioApi;
	/** Runs the workflows of "call" steps. */
	workflows?: WorkflowPort;
	/** Steps the conversation with a call's outcome (in the write that records it). */
	resume?: (record: ConversationRecord, entry: OutboxEntry, now: number) => ConversationRecord;
	clock: Pick<Clock, 'now'>;
	leaseMs: number;
	maxAttempts: number;
	/** Real time for renewing a lease while its effect waits; without it leases are not renewed. */
	wait?: CancellableWait;
	/** The process's monotonic clock (ms) for the fences; tests pass a fake one. */
	monotonic?: () => number;
	/** A reading of the client's history already made that settles a reply's check (after a loss). */
	knownHistory?: (clientId: string) => HistoryRead | undefined;
}

/** What a drain did: the effects it performed or tried, and the conversation after them. */
export interface Drained {
	record: ConversationRecord;
	conversation: ConversationView;
	actions: ActionReport[];
	/** The actions whose outcome is unknown, failed, or left to retry. */
	problems: ActionReport[];
}

/** One drain's progress, from round to round. */
interface DrainState {
	owner: string;
	/** Shared with the lease keeper, whose renewals move the version on. */
	current: Versioned;
	/** The effect leased in the last write, to perform now. */
	leased?: OutboxEntry;
	/** A performed effect's outcome, not yet written. */
	outcome?: { id: number; patch: Partial<OutboxEntry> };
	/** The last effect is to be retried later: the ones after it wait. */
	halted: boolean;
	touched: Set<number>;
	/** Effects this worker lost the lease on: another performs them; nothing more is written. */
	fenced: Set<number>;
}

/**
 * Performs a conversation's saved effects (replies, tag updates, workflow calls) after the step
 * that decided them was saved, writing each one's outcome into the record: the outbox half of the
 * engine. `commit` is the one way a step is saved and its effects performed.
 */
export class OutboxRunner {
	private readonly instance = crypto.randomUUID();
	private leases = 0;

	constructor(private readonly options: OutboxOptions) {}

	/**
	 * Saves a step and performs its effects: leases the first effect in the record (so the write
	 * that saves the step also claims it: one write less per step), writes the record by
	 * compare-and-set over `base`, then drains the outbox. Undefined when another writer changed
	 * the conversation first: the caller reloads and decides again. `dequeue`: the inbox entries
	 * the step applied, taken out in the same write. The price of the early lease: a crash between
	 * the write and the send leaves the effect leased, so a reply is then reported unknown when the
	 * lease runs out, where it would otherwise have been sent by the scheduled run (a tag update is
	 * done again either way).
	 */
	async commit(
		key: string,
		base: Versioned<ConversationRecord | undefined>,
		next: ConversationRecord,
		now: number,
		dequeue?: Parameters<ConversationStore['write']>[4],
	): Promise<Drained | undefined> {
		const held = this.leaseFirst(next, now);
		const saved = await this.options.conversations.write(key, next, base.version, now, dequeue, {
			before: base.record,
		});
		return saved ? await this.drain(key, saved, held) : undefined;
	}

	/**
	 * Performs the unfinished effects in order. Each is leased in the record before it is performed
	 * and its outcome written in the same write that leases the next, so a crash leaves at most one
	 * effect in doubt: a reply in doubt is marked unknown and never re-sent; a tag update (safe to
	 * repeat) is done again. `held`: the owner of a lease already saved (see `commit`).
	 */
	async drain(key: string, saved: Versioned, held?: string): Promise<Drained> {
		const current = { ...saved };
		const state: DrainState = {
			owner: held ?? this.owner(),
			current,
			leased: held ? current.record.outbox.find((e) => e.lease?.owner === held) : undefined,
			halted: false,
			touched: new Set(),
			fenced: new Set(),
		};
		await retry(
			BOUNDS.rounds,
			() => this.drainRound(key, state),
			() => undefined,
		);
		const record = current.record;
		const actions = record.outbox
			.filter((e) => state.touched.has(e.id))
			.map((e) => (state.fenced.has(e.id) ? { ...report(e), error: FENCED } : report(e)));
		return { record, conversation: view(record), actions, problems: actions.filter(isProblem) };
	}

	private leaseFirst(record: ConversationRecord, now: number): string | undefined {
		const next = nextToPerform(record);
		if (!next) return undefined;
		const owner = this.owner();
		this.lease(next, owner, now);
		return owner;
	}

	/** Performs the leased effect, then writes its outcome with the next lease in one write. */
	private async drainRound(key: string, state: DrainState): Promise<void | typeof AGAIN> {
		const { current, owner, touched } = state;
		if (state.leased) {
			touched.add(state.leased.id);
			const performed = await this.performKept(key, current, state.leased, owner);
			if (performed === 'fenced') {
				// Another worker holds it now: this one writes nothing more to the record.
				state.fenced.add(state.leased.id);
				state.leased = undefined;
				return;
			}
			state.outcome = { id: state.leased.id, patch: performed.patch };
			state.halted = performed.halt;
			state.leased = undefined;
		}
		const now = this.options.clock.now();
		const before = current.record;
		let record = before;
		let changed = false;
		const settled = state.outcome && this.settle(record, state.outcome);
		if (settled) {
			changed = true;
			record = this.resumed(record, settled, now);
		}
		// Expired here, reported only once this drain's write holds them (another run's may win).
		const expired = this.expireLeases(record, now);
		for (const id of expired) {
			changed = true;
			const entry = record.outbox.find((e) => e.id === id);
			if (entry) record = this.resumed(record, entry, now);
		}
		// A call's outcome may have stepped the conversation: later renewals and writes build on it.
		current.record = record;
		const next: OutboxEntry | undefined = state.halted ? undefined : nextToPerform(record);
		if (next) {
			this.lease(next, owner, now);
			changed = true;
		}
		if (!changed) return;
		const written = await this.options.conversations.write(
			key,
			record,
			current.version,
			now,
			undefined,
			{
				before,
			},
		);
		if (written === null) {
			// Another writer: reload, re-apply the outcome we hold, lease again.
			const reloaded = await this.options.conversations.read(key);
			if (!reloaded.record) return;
			Object.assign(current, reloaded);
			return AGAIN;
		}
		current.version = written.version;
		for (const id of expired) touched.add(id);
		state.outcome = undefined;
		state.leased = next;
		return AGAIN;
	}

	/**
	 * Performs one leased effect behind its fence, its lease renewed while it waits (see
	 * `LeaseKeeper`). 'fenced': the lease was lost (or may have been) before it was done.
	 */
	private async performKept(
		key: string,
		current: Versioned,
		entry: OutboxEntry,
		owner: string,
	): Promise<Performed | 'fenced'> {
		const { wait, conversations, clock } = this.options;
		const target = { key, id: entry.id, owner, leaseMs: this.options.leaseMs };
		const until = entry.lease?.until ?? clock.now() + this.options.leaseMs;
		const fence = new Fence(conversations, clock, target, until, this.options.monotonic);
		const keeper = wait && new LeaseKeeper(conversations, clock, fence, current, wait);
		try {
			const performed = await performEffect({ ...this.options, fence }, current.record, entry);
			return performed.fenced || fence.lost ? 'fenced' : performed;
		} finally {
			await keeper?.stop();
		}
	}

	private owner(): string {
		return `${this.instance}:${++this.leases}`;
	}

	private lease(entry: OutboxEntry, owner: string, now: number): void {
		entry.status = 'sending';
		// A workflow call holds its lease for as long as it may wait, and more.
		const waits = entry.effect.kind === 'workflow' ? entry.effect.timeoutMs : 0;
		entry.lease = { owner, until: now + this.options.leaseMs + waits, since: now };
		entry.attempts++;
	}

	/** Writes a performed effect's outcome into the record; undefined when it was settled already. */
	private settle(
		record: ConversationRecord,
		outcome: { id: number; patch: Partial<OutboxEntry> },
	): OutboxEntry | undefined {
		const entry = record.outbox.find((e) => e.id === outcome.id);
		if (!entry || entry.status === 'done') return undefined;
		Object.assign(entry, outcome.patch);
		// Cleared, not deleted (JSON leaves it out either way): a deleted property leaves an object
		// that every save of the record serializes more slowly.
		entry.lease = undefined;
		return entry;
	}

	/** A call's outcome moves the conversation on. */
	private resumed(record: ConversationRecord, entry: OutboxEntry, now: number): ConversationRecord {
		if (entry.effect.kind !== 'workflow' || !entry.result || !this.options.resume) return record;
		return this.options.resume(record, entry, now);
	}

	/** Another worker's lease ran out: it crashed while performing. Returns the entries changed. */
	private expireLeases(record: ConversationRecord, now: number): number[] {
		const changed: number[] = [];
		for (const entry of record.outbox) {
			if (entry.status !== 'sending' || !entry.lease || entry.lease.until > now) continue;
			changed.push(entry.id);
			const lease = entry.lease;
			entry.lease = undefined;
			if (entry.effect.kind === 'tags') entry.status = 'pending';
			else if (entry.effect.kind === 'workflow') {
				// Whether the workflow ran is unknown: never called twice, its failure branch is taken.
				entry.status = 'unknown';
				entry.error = LOST_CALL.error;
				entry.result = LOST_CALL;
			} else {
				// Sent or not: the client's history tells, before it is sent (see `perform-effect`).
				// A lease of an older version holds no time: any identical reply then counts as sent.
				entry.check = entry.check ?? { since: lease.since ?? 0 };
				entry.status = 'pending';
			}
		}
		return changed;
	}
}

const FENCED =
	'This worker lost its lease on this action (it was paused, or cut off from the store, for longer than the lease) and left it to the worker that took it over';

function nextToPerform(record: ConversationRecord): OutboxEntry | undefined {
	for (const entry of record.outbox) {
		// A live lease of another worker: it performs that one; later ones wait, to keep the order.
		if (entry.status === 'sending') return undefined;
		if (entry.status === 'pending') return entry;
	}
	return undefined;
}
