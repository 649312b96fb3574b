import { randomUUID } from 'node:crypto';

import type { Clock } from '../api/clock';
import { MessagingBotError, SendOutcomeUnknownError } from '../api/errors';
import {
	report,
	type ActionReport,
	type ConversationRecord,
	type OutboxEntry,
} from './conversation';
import type { ConversationStore } from './conversation-store';
import type { ClientProfile } from './templates';

/** The part of the API client the engine uses; `MessagingBotClient` is one. */
export interface ScenarioApi {
	sendMessage(
		botId: string,
		input: { client_id: string; text: string },
	): Promise<{ message_id?: string }>;
	updateTags(clientId: string, change: { add?: string[]; remove?: string[] }): Promise<unknown>;
	/** Read when a scenario quotes the client's profile or tests tags; without it, only the id is known. */
	getClient?(clientId: string): Promise<Partial<ClientProfile> & { id: string }>;
}

export interface OutboxOptions {
	conversations: ConversationStore;
	api: ScenarioApi;
	clock: Pick<Clock, 'now'>;
	leaseMs: number;
	maxAttempts: number;
}

/**
 * Performs a conversation's saved effects (replies, tag updates) after the step that decided them
 * was saved, writing each one's outcome into the record: the outbox half of the engine.
 */
export class OutboxRunner {
	private readonly instance = randomUUID();
	private leases = 0;

	constructor(private readonly options: OutboxOptions) {}

	/**
	 * Performs the unfinished effects in order. Each is leased in the record before it is performed
	 * and its outcome written in the same write that leases the next, so a crash leaves at most one
	 * effect in doubt: a reply in doubt is marked unknown and never re-sent; a tag update (safe to
	 * repeat) is done again.
	 */
	async drain(
		key: string,
		saved: { record: ConversationRecord; version: number },
	): Promise<{ actions: ActionReport[]; record: ConversationRecord }> {
		const owner = `${this.instance}:${++this.leases}`;
		const touched = new Set<number>();
		let { record, version } = saved;
		let outcome: { id: number; patch: Partial<OutboxEntry> } | undefined;
		let halted = false;
		for (let round = 0; round < 10_000; round++) {
			const now = this.options.clock.now();
			let changed = false;
			if (outcome) {
				const done = outcome;
				const entry = record.outbox.find((e) => e.id === done.id);
				if (entry && entry.status !== 'done') {
					Object.assign(entry, done.patch);
					delete entry.lease;
					changed = true;
				}
			}
			for (const id of this.expireLeases(record, now)) {
				touched.add(id);
				changed = true;
			}
			const next = halted ? undefined : nextToPerform(record);
			if (next) {
				next.status = 'sending';
				next.lease = { owner, until: now + this.options.leaseMs };
				next.attempts++;
				changed = true;
			}
			if (!changed) break;
			const written = await this.options.conversations.write(key, record, version, now);
			if (written === null) {
				// Another writer: reload, re-apply the outcome we hold, lease again.
				const reloaded = await this.options.conversations.read(key);
				if (!reloaded.record) break;
				({ record, version } = reloaded as { record: ConversationRecord; version: number });
				continue;
			}
			version = written.version;
			outcome = undefined;
			if (!next) break;
			touched.add(next.id);
			const performed = await this.perform(record, next);
			outcome = { id: next.id, patch: performed.patch };
			halted = performed.halt;
		}
		return { actions: record.outbox.filter((e) => touched.has(e.id)).map(report), record };
	}

	/** Another worker's lease ran out: it crashed while performing. Returns the entries changed. */
	private expireLeases(record: ConversationRecord, now: number): number[] {
		const changed: number[] = [];
		for (const entry of record.outbox) {
			if (entry.status !== 'sending' || !entry.lease || entry.lease.until > now) continue;
			changed.push(entry.id);
			delete entry.lease;
			if (entry.effect.kind === 'tags') entry.status = 'pending';
			else {
				entry.status = 'unknown';
				entry.error =
					'The worker sending this reply stopped before recording the outcome; it was not re-sent';
			}
		}
		return changed;
	}

	private async perform(
		record: ConversationRecord,
		entry: OutboxEntry,
	): Promise<{ patch: Partial<OutboxEntry>; halt: boolean }> {
		const effect = entry.effect;
		try {
			if (effect.kind === 'reply') {
				const sent = await this.options.api.sendMessage(record.botId, {
					client_id: record.clientId,
					text: effect.text,
				});
				return {
					patch: {
						status: 'done',
						...(sent.message_id ? { sentId: sent.message_id } : {}),
						error: undefined,
					},
					halt: false,
				};
			}
			await this.options.api.updateTags(record.clientId, {
				...(effect.add.length ? { add: effect.add } : {}),
				...(effect.remove.length ? { remove: effect.remove } : {}),
			});
			return { patch: { status: 'done', error: undefined }, halt: false };
		} catch (error) {
			const message = error instanceof Error ? error.message : String(error);
			// Sent or not, nobody knows: recorded as unknown, never sent again.
			if (
				error instanceof SendOutcomeUnknownError ||
				(effect.kind === 'reply' && !(error instanceof MessagingBotError))
			)
				return { patch: { status: 'unknown', error: message }, halt: false };
			// Certainly not done (or safe to repeat): retried later, in order, up to maxAttempts.
			const status = entry.attempts >= this.options.maxAttempts ? 'failed' : 'pending';
			return { patch: { status, error: message }, halt: true };
		}
	}
}

function nextToPerform(record: ConversationRecord): OutboxEntry | undefined {
	for (const entry of record.outbox) {
		// A live lease of another worker: it performs that one; later ones wait, to keep the order.
		if (entry.status === 'sending') return undefined;
		if (entry.status === 'pending') return entry;
	}
	return undefined;
}
