import { inboxNamespace } from '../scenarios/engine/inbox';
import type { StateStore } from '../stores/types';

/**
 * Longer than the service's whole retry schedule (1 + 5 + 15 minutes) and its manual re-requests
 * from the dead-letter queue, which happen within a day.
 */
export const DEFAULT_DEDUPE_TTL_MS = 48 * 3_600_000;

/**
 * Drops redeliveries, for deliveries not kept in an inbox: claims each id (the delivery's, then a
 * message's) where an inbox append would claim it, so both ways of receiving agree. False when
 * one was claimed before.
 */
export async function claimDelivery(
	store: StateStore,
	scope: string,
	claims: readonly string[],
	ttlMs = DEFAULT_DEDUPE_TTL_MS,
): Promise<boolean> {
	for (const id of claims) {
		if (!(await store.claim(inboxNamespace(scope), id, ttlMs))) return false;
	}
	return true;
}
