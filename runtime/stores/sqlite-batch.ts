/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- node:sqlite, see sqlite.ts; the commit and checkpoint are scheduled with the event loop's own timers */
import type { DatabaseSync, StatementSync } from 'node:sqlite';

/** What an operation returns to have its own writes undone (the others in the batch stay). */
export const UNDO = Symbol('undo');

// Taken at load: a test's fake timers must not stop commits.
const defer = setImmediate;
const later = setTimeout;
const cancel = clearTimeout;

/** How often the log is folded into the database file, and the most commits it may hold. */
const CHECKPOINT_AFTER_MS = 100;
const CHECKPOINT_AT_COMMITS = 10_000;

type Batch = { committed: Promise<void>; settle: (error?: Error) => void };

/** What a connection writes into each batch just before it commits, or forgets when it is undone. */
export interface BatchTail {
	beforeCommit(): void;
	discard(): void;
	/** After a commit (the loss marker's copy follows it). */
	committed?(): void;
}

/**
 * The connections of this process with a batch open. Another connection to the same file in this
 * process would wait for the write lock with the event loop blocked, so the batch could never
 * commit: each connection commits the others' batches before opening its own.
 */
const holding = new Set<GroupCommit>();

/**
 * Commits the batches this process's connections hold open: what a connection does before it
 * writes outside a batch (opening a file writes to it), or it would wait for their lock with the
 * event loop blocked until SQLite gives up.
 */
export function commitOpenBatches(): void {
	for (const other of holding) other.commit();
}

/**
 * Group commit for one connection. The writes of everything the process does in one turn of the
 * event loop (the steps, outbox leases and inbox appends of concurrently handled messages) share
 * one write transaction: the first operation opens it (BEGIN IMMEDIATE), each runs at once inside
 * it (in its own savepoint when it may have to undo part of itself), and it commits at the end of
 * the turn. No operation's promise settles before that commit: nobody learns a result, or acts on
 * it (sends a reply), before it is in the log. A read made while a batch is open sees the batch's
 * writes, and waits for the same commit. Other processes wait for the write lock (busy timeout) for
 * at most one turn.
 *
 * A connection's `BatchTail` writes what it gathered over the batch (the counters' sums) into the
 * transaction just before the commit, and forgets it when the transaction is rolled back.
 *
 * Checkpoints (folding the log into the file, and flushing it to disk) run from a timer a little
 * after the commits, or after CHECKPOINT_AT_COMMITS commits, never inside a message's commit.
 */
export class GroupCommit {
	private batch: Batch | null = null;
	private sinceCheckpoint = 0;
	private checkpointTimer: ReturnType<typeof setTimeout> | null = null;
	private readonly s: Record<
		'begin' | 'commit' | 'rollback' | 'savepoint' | 'release' | 'undo' | 'checkpoint',
		StatementSync
	>;
	/** Write transactions committed. */
	commits = 0;

	constructor(
		private readonly db: DatabaseSync,
		private readonly tail?: BatchTail,
		/** Turns SQLite's error into one a user can act on (the file, the cause, what to do). */
		private readonly explain: (error: unknown) => Error = (error) => error as Error,
	) {
		const prepare = (sql: string) => db.prepare(sql);
		this.s = {
			begin: prepare('BEGIN IMMEDIATE'),
			commit: prepare('COMMIT'),
			rollback: prepare('ROLLBACK'),
			savepoint: prepare('SAVEPOINT op'),
			release: prepare('RELEASE op'),
			undo: prepare('ROLLBACK TO op'),
			checkpoint: prepare('PRAGMA wal_checkpoint(PASSIVE)'),
		};
	}

	/** Runs `work` in the open batch (opening one); resolves once the batch is committed. */
	async write<T>(work: () => T | typeof UNDO, undoable = false): Promise<T | typeof UNDO> {
		let batch: Batch | undefined;
		try {
			batch = this.open();
			const result = undoable ? this.undoable(work) : work();
			await batch.committed;
			return result;
		} catch (error) {
			// A write that failed part-way (a full disk at its second statement) is undone: in its
			// savepoint, else with its whole batch; so too when SQLite rolled the batch back itself.
			if (batch && batch === this.batch && (!undoable || !this.db.isTransaction))
				this.abort(batch, error);
			throw this.explain(error);
		}
	}

	/** The open batch rolled back: every write in it fails, and the next write opens a new one. */
	private abort(batch: Batch, error: unknown): void {
		this.batch = null;
		holding.delete(this);
		this.rollback();
		batch.settle(error as Error);
	}

	private undoable<T>(work: () => T | typeof UNDO): T | typeof UNDO {
		this.s.savepoint.run();
		let kept = false;
		try {
			const result = work();
			kept = result !== UNDO;
			return result;
		} finally {
			// Undone when it asked to be, or threw; unless SQLite rolled the whole transaction back.
			if (this.db.isTransaction) {
				if (!kept) this.s.undo.run();
				this.s.release.run();
			}
		}
	}

	/** Runs a read now; with a batch open, resolves once it is committed. */
	async read<T>(work: () => T): Promise<T> {
		try {
			const result = work();
			if (this.batch) await this.batch.committed;
			return result;
		} catch (error) {
			throw this.explain(error);
		}
	}

	private open(): Batch {
		if (this.batch) return this.batch;
		commitOpenBatches();
		// Never left open by a failure: a connection stuck in a transaction holds the write lock.
		if (this.db.isTransaction) this.rollback();
		this.s.begin.run();
		let settle!: Batch['settle'];
		const committed = new Promise<void>((resolve, reject) => {
			settle = (error) => (error ? reject(error) : resolve());
		});
		// Each waiter handles the failure; this keeps one with none from being unhandled.
		committed.catch(() => undefined);
		this.batch = { committed, settle };
		holding.add(this);
		defer(() => this.commit());
		return this.batch;
	}

	commit(): void {
		const batch = this.batch;
		if (!batch) return;
		this.batch = null;
		holding.delete(this);
		try {
			this.tail?.beforeCommit();
			this.s.commit.run();
		} catch (error) {
			this.abort(batch, error);
			return;
		}
		this.commits++;
		this.tail?.committed?.();
		batch.settle();
		if (++this.sinceCheckpoint >= CHECKPOINT_AT_COMMITS) this.checkpoint();
		else this.checkpointTimer ??= later(() => this.checkpoint(), CHECKPOINT_AFTER_MS).unref();
	}

	private rollback(): void {
		this.tail?.discard();
		try {
			if (this.db.isTransaction) this.s.rollback.run();
		} catch {
			// SQLite rolls a failed transaction back itself when it cannot (a full disk, a lost file).
		}
	}

	private checkpoint(): void {
		if (this.checkpointTimer) cancel(this.checkpointTimer);
		this.checkpointTimer = null;
		if (!this.db.isOpen) return;
		// Inside a transaction SQLite refuses to checkpoint: the batch's commit schedules the next.
		if (this.batch) return;
		this.sinceCheckpoint = 0;
		try {
			this.s.checkpoint.run();
		} catch {
			// Busy with another process's checkpoint: the next commit schedules one again.
		}
	}

	/** Commits the open batch and stops the timer (the connection closes, folding the log itself). */
	stop(): void {
		this.commit();
		if (this.checkpointTimer) cancel(this.checkpointTimer);
		this.checkpointTimer = null;
	}
}
