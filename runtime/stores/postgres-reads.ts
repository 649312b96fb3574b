/* eslint-disable @n8n/community-nodes/no-restricted-globals -- reads are sent on the event loop's next turn, so that reads issued together share one statement */
import type { ConversationAt, ConversationRead } from './reads';

/** A row of a conversation read: the record's (no seq, no at) or an inbox entry's; `n` its read's place. */
export type ConversationRow = {
	n?: string;
	seq: string | null;
	value: string;
	version: string | null;
	at: string | null;
};

type RunRows = (
	name: 'conversation' | 'conversations',
	values: unknown[],
) => Promise<ConversationRow[]>;

type Pending = {
	at: ConversationAt;
	resolve: (read: ConversationRead) => void;
	reject: (error: unknown) => void;
};

/** Reads in one statement at most. */
const LIMIT = 64;

/**
 * Conversation reads issued in one turn of the event loop go to the server together, as one
 * statement (`conversations`: each read's record and inbox, all from one snapshot), instead of one
 * statement, one round trip and one socket write each; a read alone goes as it did (`conversation`).
 * With 50 conversations in flight, the reads were most of the statements a message made.
 */
export class ReadBatcher {
	private queue: Pending[] = [];
	private scheduled = false;

	constructor(
		private readonly run: RunRows,
		private readonly now: () => number,
	) {}

	read(at: ConversationAt): Promise<ConversationRead> {
		return new Promise((resolve, reject) => {
			this.queue.push({ at, resolve, reject });
			if (this.scheduled) return;
			this.scheduled = true;
			setImmediate(() => {
				this.scheduled = false;
				while (this.queue.length > 0) void this.send(this.queue.splice(0, LIMIT));
			});
		});
	}

	private async send(batch: Pending[]): Promise<void> {
		const now = this.now();
		try {
			if (batch.length === 1) {
				const { recordNamespace, key, inboxNamespace, queue, limit } = batch[0].at;
				const values = [recordNamespace, key, now, inboxNamespace, queue, limit];
				batch[0].resolve(conversationRead(await this.run('conversation', values)));
				return;
			}
			const rows = await this.run('conversations', [
				batch.map((p) => p.at.recordNamespace),
				batch.map((p) => p.at.key),
				batch.map((p) => p.at.inboxNamespace),
				batch.map((p) => p.at.queue),
				batch.map((p) => p.at.limit),
				now,
			]);
			const each: ConversationRow[][] = batch.map(() => []);
			for (const row of rows) each[Number(row.n) - 1].push(row);
			batch.forEach((p, i) => p.resolve(conversationRead(each[i])));
		} catch (error) {
			for (const p of batch) p.reject(error);
		}
	}
}

/** A conversation's rows as read: its record, and its inbox lowest seq first. */
function conversationRead(rows: ConversationRow[]): ConversationRead {
	const record = rows.find((r) => r.seq === null);
	const inbox = rows.filter((r) => r.seq !== null);
	return {
		record: record && { value: record.value, version: Number(record.version) },
		queued: inbox
			.map((r) => ({ seq: Number(r.seq), value: r.value, at: Number(r.at) }))
			.sort((x, y) => x.seq - y.seq),
	};
}
