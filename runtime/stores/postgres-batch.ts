/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a batch is sent on the event loop's next turn, so that writes issued together share one commit */
import type { QueryResultRow } from 'pg';

import { batchJson, type SummedBatch } from './postgres-batch-counts';
import { BATCHED } from './postgres-schema';

export type Result<R extends QueryResultRow = QueryResultRow> = { rows: R[]; rowCount: number };
type Answer = Result | null;

type Pending = {
	name: string;
	values: unknown[];
	resolve: (result: Answer) => void;
	reject: (error: unknown) => void;
};

/**
 * Batches in flight at once: while some wait for their commits' flushes, the next ones fill. At 50
 * messages in flight the store waited on its batches' round trips, neither this process nor the
 * server's core busy: 4 ran faster than 2 in each of 5 pairs (2 to 20 %), 8 slower than 4.
 */
const IN_FLIGHT = 4;
/** Statements per transaction at most. */
const LIMIT = 64;

/**
 * Group commit: writes issued while others are being committed wait and then go together, in one
 * statement (the schema's mb_batch function), so that they share one round trip and one commit
 * (one flush of the server's log) instead of each paying its own. Each resolves once that commit is acknowledged, as it would
 * alone. A write alone goes alone (one statement, no BEGIN or COMMIT). When a batch fails with an
 * answer of the server (the statement rolled back whole: a deadlock with another process, say),
 * each of its writes runs again alone, so one write's failure is its own; a batch whose connection
 * broke fails whole (whether it committed is unknown, so nothing is run twice).
 */
export class WriteBatcher {
	private queue: Pending[] = [];
	private inFlight = 0;
	private scheduled = false;

	constructor(
		/** Several writes in one statement (mb_batch_summed's arguments): their answers, in order. */
		private readonly together: (batch: SummedBatch) => Promise<unknown[]>,
		/** One write alone, with its retries (PostgresPool.run's own path). */
		private readonly alone: (name: string, values: unknown[]) => Promise<Answer>,
		/** The connection broke (undefined: the server answered). */
		private readonly brokenBy: (error: unknown) => Error | undefined,
	) {}

	submit(name: string, values: unknown[]): Promise<Answer> {
		return new Promise((resolve, reject) => {
			this.queue.push({ name, values, resolve, reject });
			if (this.scheduled) return;
			this.scheduled = true;
			// The next turn: the writes of this one (an append and its note, say) go together.
			setImmediate(() => {
				this.scheduled = false;
				this.pump();
			});
		});
	}

	private pump(): void {
		while (this.inFlight < IN_FLIGHT && this.queue.length > 0) {
			const batch = this.queue.splice(0, LIMIT);
			this.inFlight++;
			void this.send(batch).finally(() => {
				this.inFlight--;
				this.pump();
			});
		}
	}

	private async send(batch: Pending[]): Promise<void> {
		if (batch.length === 1) {
			const [one] = batch;
			await this.alone(one.name, one.values).then(one.resolve, one.reject);
			return;
		}
		let answers: unknown[];
		try {
			answers = await this.together(batchJson(batch));
		} catch (error) {
			// Rolled back whole (a deadlock with another process, or a counted write that lost its
			// compare-and-set, so the batch's sum was wrong): each alone, so one write's failure and
			// counts are its own. A connection that broke: whether it committed is unknown.
			if (this.brokenBy((error as { cause?: unknown }).cause ?? error))
				for (const p of batch) p.reject(error);
			else
				await Promise.all(batch.map((p) => this.alone(p.name, p.values).then(p.resolve, p.reject)));
			return;
		}
		batch.forEach((p, i) => p.resolve(BATCHED[p.name](answers[i])));
	}
}
