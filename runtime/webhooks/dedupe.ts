import { inboxClaims, inboxNamespace } from '../scenarios/inbox';
import type { StateStore } from '../stores/types';

/**
 * Longer than the service's whole retry schedule (1 + 5 + 15 minutes) and its manual re-requests
 * from the dead-letter queue, which happen within a day.
 */
export const DEFAULT_DEDUPE_TTL_MS = 48 * 3_600_000;

/**
 * Drops redeliveries: a delivery id (the same on every attempt, A29) is let through once, and for
 * `message.received` so is a message id, whatever delivery carries it.
 */
export class Deduplicator {
	constructor(
		private readonly store: StateStore,
		private readonly scope: string,
		private readonly ttlMs = DEFAULT_DEDUPE_TTL_MS,
	) {}

	/** The same claims, in the same place, as a message put in a conversation's inbox. */
	async firstSeen(deliveryId: string, messageId?: string): Promise<boolean> {
		const ns = inboxNamespace(this.scope);
		const [delivery, message] = inboxClaims(messageId ?? '', deliveryId);
		if (!(await this.store.claim(ns, delivery, this.ttlMs))) return false;
		if (messageId === undefined) return true;
		return await this.store.claim(ns, message, this.ttlMs);
	}
}
