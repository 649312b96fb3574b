import { msOf } from '../../api/clock';
import { unfinished, type ConversationRecord } from '../durability/record';
import type { HealingSession } from './healing-session';
import { newcomer, type Placement } from './healing';
import type { Inbound, MessageReceived } from './inbox';

/**
 * When a conversation is to be reconciled with the client's history: the pure half of the
 * healer's decision, on what this process knows (its healing session) and what the applier read.
 */

/** What the applier knows besides the record: the message in hand and the conversation's inbox. */
export interface HealContext {
	/** The message this call is to apply: a delivery is being handled. */
	anchor?: MessageReceived;
	/** The conversation's inbox as read with the record. */
	queued?: readonly Inbound[];
	/** The scheduled run found the conversation noted active before this process began. */
	activeBefore?: boolean;
}

export interface NeedFacts {
	session: HealingSession;
	horizonMs: number;
	now: number;
	/** Another process served this scope within the horizon before this one began: a restart. */
	followsAnother?: boolean;
}

/**
 * A conversation with no record whose first message reached this process within this long of its
 * first delivery: n8n may have answered earlier ones of the same client without passing them on
 * while it started (404, "starting up"), so its history is read once.
 */
export const NEWCOMER_SETTLE_MS = 30_000;

/**
 * A delivery this long after its message was written came by a retry (the service gives an
 * attempt 5 s): an earlier attempt failed, and other messages the client wrote about then may
 * have failed as well (A40). Clocks are taken to agree within a few seconds (NTP).
 */
export const RETRIED_AFTER_MS = 10_000;
/** A history read this long after a message was written lists it (A39's variant: 1.5 s). */
const LISTED_AFTER_MS = 2000;

const sentAtOf = (message: MessageReceived | undefined): number => msOf(message?.timestamp);

/**
 * The message in hand came by a retry, is not already late, and no reading of the history since
 * it was written lists what the client wrote before it: those may never have reached a process.
 */
function retriedUnread(
	record: ConversationRecord,
	anchor: MessageReceived | undefined,
	reconciledAt: number | undefined,
	now: number,
): boolean {
	const sentAt = sentAtOf(anchor);
	if (!(now - sentAt > RETRIED_AFTER_MS) || sentAt < (record.lastSentAt ?? -Infinity)) return false;
	return reconciledAt === undefined || reconciledAt < sentAt + LISTED_AFTER_MS;
}

/** Reconciled only provisionally (before this process served deliveries), and now delivered to. */
function provisional(
	reconciledAt: number | undefined,
	facts: NeedFacts,
	delivery: boolean,
): boolean {
	return (
		reconciledAt !== undefined && delivery && reconciledAt < (facts.session.firstDelivery ?? 0)
	);
}

/** Reconciled already, and not only provisionally. */
function settled(key: string, facts: NeedFacts, delivery: boolean): boolean {
	const reconciledAt = facts.session.reconciled.get(key);
	return reconciledAt !== undefined && !provisional(reconciledAt, facts, delivery);
}

/**
 * Written before this process began, within the horizon; or reconciled only provisionally and
 * now delivered to; or a lease that ran out, once; or the message in hand came by a retry.
 */
export function recordNeeds(
	key: string,
	record: ConversationRecord,
	facts: NeedFacts,
	anchor?: MessageReceived,
): boolean {
	const { session, horizonMs, now } = facts;
	const reconciledAt = session.reconciled.get(key);
	if (provisional(reconciledAt, facts, anchor !== undefined)) return true;
	if (retriedUnread(record, anchor, reconciledAt, now)) return true;
	const expired = record.outbox.find(
		(e) => unfinished(e) && e.lease !== undefined && e.lease.until <= now,
	);
	const takeover = expired && `${key}@${expired.lease?.until}`;
	if (takeover && !session.takeovers.has(takeover)) {
		session.takeovers.add(takeover);
		return true;
	}
	return (
		reconciledAt === undefined &&
		record.updatedAt < session.startedAt &&
		now - record.updatedAt <= horizonMs
	);
}

/**
 * Where a conversation with no record is placed, when it is to be reconciled: its inbox holds a
 * message accepted before this process began (the process that accepted it died before applying
 * it), or the scheduled run found it noted active then, or, after a restart, its message in hand
 * was written before this process had served deliveries for a while. Everything the client wrote
 * to the bot within the horizon before this process began is then its own. Undefined: no
 * reconciliation.
 */
export function newcomerPlacement(
	key: string,
	context: HealContext,
	facts: NeedFacts,
): Placement | undefined {
	const { session, horizonMs, now } = facts;
	const delivery = context.anchor !== undefined;
	if (settled(key, facts, delivery) || now - session.startedAt > horizonMs) return undefined;
	const first = context.anchor ?? context.queued?.[0]?.message;
	if (!first) return undefined;
	const acceptedBefore = (context.queued ?? []).some((e) => e.at < session.startedAt);
	const sentAt = sentAtOf(first);
	const early =
		delivery &&
		facts.followsAnother === true &&
		sentAt < (session.firstDelivery ?? now) + NEWCOMER_SETTLE_MS;
	if (!acceptedBefore && !context.activeBefore && !early) return undefined;
	return newcomer(first.bot_id, first.client_id, session.startedAt - horizonMs);
}
