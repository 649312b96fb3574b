/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the marker's stamp is scheduled on the event loop's own timer, a few milliseconds after a write */
import { randomUUID } from 'node:crypto';

import { SHARED_LOSS_EVERY_MS, sharedLoss, type LostWrites } from './loss';

// Taken at load: a test's fake timers must not stop the marker.
const later = setTimeout;

/** A write is followed by its marker's stamp within this long (one statement per process at most). */
const STAMP_EVERY_MS = 20;

/** The marker's rows as read: the store's id and this process's time (null when absent). */
export type MarkerRow = { id: string | null; mine: string | null; loss?: string | null };

/** Runs one of the marker's statements (by name in postgres-schema.ts) and gives its first row. */
export type MarkerQuery = (
	name: 'markerRead' | 'markerInit' | 'markerKeep' | 'markerStamp' | 'markerShareLoss',
	values: unknown[],
) => Promise<MarkerRow | undefined>;

/**
 * The loss marker of a PostgreSQL store, as the Redis store keeps one (redis-marker.ts): the
 * schema's `marker` table holds the store's id and, per process, the time of its latest write the
 * marker follows; the process keeps in memory the last time PostgreSQL acknowledged. Each new
 * connection is checked before its first statement (a restored database is reached on new
 * connections: a restore ends the old ones), and each stamp reads what it replaces (a schema's
 * tables put back under open connections): no id (the tables came back empty, or were made anew),
 * another id, or this process's time older than the one acknowledged (an older backup) is a loss.
 * Not seen: a write acknowledged after the last stamp and lost with it (at most STAMP_EVERY_MS),
 * and a restore made while no process of n8n ran (the copy is in the process's memory).
 * A loss is the whole store's: the finder writes it into the table (the first finder's kept), and
 * every process takes in a loss found after it began, on a new connection and when asked (before
 * each execution, at most every SHARED_LOSS_EVERY_MS), as redis-marker.ts does.
 */
export class PostgresMarker {
	private readonly process = `w:${randomUUID()}`;
	private id?: string;
	/** When this process first saw the marker: what an empty store lost is everything since. */
	private since = 0;
	private acknowledged = 0;
	/** Grows with each loss found: a stamp sent before one does not find it again. */
	private found = 0;
	private stamping?: ReturnType<typeof setTimeout>;
	private inFlight = false;
	private again = false;
	/** Checks run one after another: two new connections do not both find one loss. */
	private checks: Promise<void> = Promise.resolve();
	private sharedReadAt = 0;
	lost?: LostWrites;

	constructor(private readonly now: () => number) {}

	/** On a new connection, before its first statement. */
	check(query: MarkerQuery): Promise<void> {
		const run = this.checks.then(() => this.checkNow(query));
		this.checks = run.catch(() => undefined);
		return run;
	}

	/** Until the checks begun so far are done. */
	async settled(): Promise<void> {
		await this.checks;
	}

	private async checkNow(query: MarkerQuery): Promise<void> {
		if (!this.id) {
			// First connection: the store's id, kept from then on (made once, by whoever is first).
			const made = await query('markerInit', [randomUUID()]);
			// Made at once by another process: its id, read again after its commit.
			this.id = made?.id ?? (await query('markerRead', [this.process]))?.id ?? undefined;
			this.since = this.now();
			return;
		}
		const acknowledged = this.acknowledged;
		const found = this.found;
		const row = await query('markerRead', [this.process]);
		if (!(await this.compare(query, row, acknowledged, found)) && row?.id === this.id)
			this.takeShared(row?.loss);
	}

	/** A loss another process found and wrote into the table: taken in, at most this often. */
	async shared(query: MarkerQuery): Promise<void> {
		if (!this.id || this.now() - this.sharedReadAt < SHARED_LOSS_EVERY_MS) return;
		this.sharedReadAt = this.now();
		const row = await query('markerRead', [this.process]);
		if (row?.id === this.id) this.takeShared(row.loss);
	}

	private takeShared(value: string | null | undefined): void {
		const loss = sharedLoss(value, this.since, this.lost);
		if (!loss) return;
		this.found++;
		this.lost = loss;
	}

	/** A write was acknowledged: the marker follows it shortly (and reads what it replaces). */
	stamp(query: MarkerQuery): void {
		if (!this.id) return;
		// One stamp at a time; a write acknowledged meanwhile gets the next one.
		if (this.stamping || this.inFlight) {
			this.again = !this.stamping;
			return;
		}
		this.stamping = later(() => {
			this.stamping = undefined;
			this.inFlight = true;
			const at = this.now();
			const acknowledged = this.acknowledged;
			const found = this.found;
			query('markerStamp', [this.process, String(at)])
				.then(async (before) => {
					if (await this.compare(query, before, acknowledged, found)) return;
					this.acknowledged = Math.max(this.acknowledged, at);
				})
				.catch(() => undefined)
				.finally(() => {
					this.inFlight = false;
					if (this.again) {
						this.again = false;
						this.stamp(query);
					}
				});
		}, STAMP_EVERY_MS).unref();
	}

	/** True when the marker as read shows a loss (then kept again from now on). */
	private async compare(
		query: MarkerQuery,
		row: MarkerRow | undefined,
		acknowledged: number,
		found: number,
	): Promise<boolean> {
		if (found !== this.found) return false;
		const mine = Number(row?.mine ?? 0);
		let detail: string | undefined;
		if (!row?.id) detail = 'it came back empty (its tables made anew, or emptied)';
		else if (row.id !== this.id) detail = 'it came back as another store';
		else if (mine < acknowledged)
			detail = `it came back as it was at ${new Date(mine).toISOString()}: restored from an older backup?`;
		if (!detail) return false;
		const now = this.now();
		this.found++;
		const since = row?.id === this.id && mine > 0 ? mine : this.since;
		this.lost = { foundAt: now, since, detail };
		// Kept again: the next loss is told from this one.
		await query('markerKeep', [this.id]);
		await query('markerStamp', [this.process, String(now)]);
		this.acknowledged = now;
		// Told to every other process; or the same loss another process told first.
		const told = await query('markerShareLoss', [JSON.stringify(this.lost), acknowledged]);
		if (told?.loss) this.lost = JSON.parse(told.loss) as LostWrites;
		return true;
	}

	stop(): void {
		if (this.stamping) clearTimeout(this.stamping);
		this.stamping = undefined;
	}
}
