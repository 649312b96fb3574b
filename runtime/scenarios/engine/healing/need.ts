import { msOf } from '../../../api/clock';
import { unfinished, type ConversationRecord } from '../../durability/record';
import type { HealingSession } from './session';
import { newcomer, type Placement } from './missing';
import type { Inbound, MessageReceived } from '../inbox';

/**
 * When a conversation is to be healed from the client's history: the pure half of the
 * healer's decision, on what this process knows (its healing session, read, never written) and
 * what the applier read.
 */

/** What the applier knows besides the record: the message in hand and the conversation's inbox. */
export interface HealContext {
	/** The message this call is to apply: a delivery is being handled. */
	anchor?: MessageReceived;
	/** The conversation's inbox as read with the record. */
	queued?: readonly Inbound[];
	/** The scheduled run found the conversation noted active before this process began. */
	activeBefore?: boolean;
	/**
	 * The scheduled run is to apply a stuck inbox: its latest-written message, checked as a
	 * delivery that came by a retry would be (the messages around it may have failed too).
	 */
	stuck?: MessageReceived;
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
	healedAt: number | undefined,
	now: number,
): boolean {
	const sentAt = sentAtOf(anchor);
	if (!(now - sentAt > RETRIED_AFTER_MS) || sentAt < (record.lastSentAt ?? -Infinity)) return false;
	return healedAt === undefined || healedAt < sentAt + LISTED_AFTER_MS;
}

/** Healed only provisionally (before this process served deliveries), and now delivered to. */
function provisional(healedAt: number | undefined, facts: NeedFacts, delivery: boolean): boolean {
	return healedAt !== undefined && delivery && healedAt < (facts.session.firstDelivery ?? 0);
}

/** Healed already, and not only provisionally. */
function settled(key: string, facts: NeedFacts, delivery: boolean): boolean {
	const healedAt = facts.session.healedAt.get(key);
	return healedAt !== undefined && !provisional(healedAt, facts, delivery);
}

/** Why a conversation with a record is to be healed (`takeover` names the expired lease). */
export type RecordNeed =
	| { why: 'provisional' | 'retried' | 'restart' }
	| { why: 'takeover'; takeover: string };

/**
 * Written before this process began, within the horizon; or healed only provisionally and
 * now delivered to; or a lease that ran out, once (the caller notes the takeover in its session);
 * or the message in hand came by a retry. Undefined: no healing.
 */
export function recordNeeds(
	key: string,
	record: ConversationRecord,
	facts: NeedFacts,
	context: HealContext = {},
): RecordNeed | undefined {
	const { session, horizonMs, now } = facts;
	const healedAt = session.healedAt.get(key);
	const { anchor } = context;
	if (provisional(healedAt, facts, anchor !== undefined)) return { why: 'provisional' };
	if (retriedUnread(record, anchor ?? context.stuck, healedAt, now)) return { why: 'retried' };
	const expired = record.outbox.find(
		(e) => unfinished(e) && e.lease !== undefined && e.lease.until <= now,
	);
	const takeover = expired && `${key}@${expired.lease?.until}`;
	if (takeover && !session.takeovers.has(takeover)) return { why: 'takeover', takeover };
	const restart =
		healedAt === undefined &&
		record.updatedAt < session.startedAt &&
		now - record.updatedAt <= horizonMs;
	return restart ? { why: 'restart' } : undefined;
}

/**
 * Where a conversation with no record is placed, when it is to be healed: its inbox holds a
 * message accepted before this process began (the process that accepted it died before applying
 * it), or the scheduled run found it noted active then, or, after a restart, its message in hand
 * was written before this process had served deliveries for a while: everything the client wrote
 * to the bot within the horizon before this process began is then its own. Or the message in hand
 * (or the stuck inbox's latest) came by a retry: everything the client wrote within the horizon
 * before its earliest message known here is its own (no record: none of it was applied).
 * Undefined: no healing.
 */
export function newcomerPlacement(
	key: string,
	context: HealContext,
	facts: NeedFacts,
): Placement | undefined {
	const { session, horizonMs, now } = facts;
	const delivery = context.anchor !== undefined;
	if (settled(key, facts, delivery)) return undefined;
	const first = context.anchor ?? context.queued?.[0]?.message;
	if (!first) return undefined;
	const retried = context.anchor ?? context.stuck;
	if (retried && now - sentAtOf(retried) > RETRIED_AFTER_MS) {
		const known = [first, ...(context.queued ?? []).map((e) => e.message)].map(sentAtOf);
		const earliest = Math.min(...known.filter((at) => !Number.isNaN(at)));
		return newcomer(first.bot_id, first.client_id, earliest - horizonMs);
	}
	if (now - session.startedAt > horizonMs) return undefined;
	const acceptedBefore = (context.queued ?? []).some((e) => e.at < session.startedAt);
	const sentAt = sentAtOf(first);
	const early =
		delivery &&
		facts.followsAnother === true &&
		sentAt < (session.firstDelivery ?? now) + NEWCOMER_SETTLE_MS;
	// The store lost writes: a conversation this process knew before is rebuilt, not begun again.
	const known =
		session.lossFound !== undefined && (session.noted.get(key) ?? Infinity) < session.lossFound;
	if (!acceptedBefore && !context.activeBefore && !early && !known) return undefined;
	return newcomer(first.bot_id, first.client_id, session.startedAt - horizonMs);
}
