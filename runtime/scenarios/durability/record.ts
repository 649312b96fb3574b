import type { Reached, ReachedBefore } from '../analytics/reached';
import type { Stop, StopBefore } from '../analytics/stops';
import type { PersistedSnapshot } from '../machine/compile';
import type { CallResult, Effect } from '../machine/setup';

/**
 * The stored conversation of one client with one bot: the machine's snapshot, and the outbox of
 * effects with what became of each. Saved whole with compare-and-set, so a step and the effects
 * it decided are one atomic write, and every effect performed is written down before the next.
 */

type OutboxStatus = 'pending' | 'sending' | 'done' | 'unknown' | 'failed';

export interface OutboxEntry {
	/** Grows by one per effect in the conversation. */
	id: number;
	/** What caused it: a message id, `timer@<due ms>` or `release@<ms>`. */
	cause: string;
	effect: Effect;
	status: OutboxStatus;
	attempts: number;
	/** Held while one worker performs the effect; another takes over only once it has expired. */
	lease?: { owner: string; until: number; since?: number };
	/**
	 * A reply whose worker stopped after leasing it: before it is sent, the client's history is
	 * read for it from `since` (when it was first leased), so a reply that went out is not sent again.
	 */
	check?: { since: number };
	error?: string;
	/** The service's id of a sent reply. */
	sentId?: string;
	/** A workflow call's outcome. */
	result?: CallResult;
	/** Its outcome is in the analytics counters (analytics/tally.ts). */
	counted?: boolean;
}

export interface ConversationRecord {
	format: 1;
	botId: string;
	clientId: string;
	scenario: { id: string; version: number };
	snapshot: PersistedSnapshot;
	/** The conversation reached an end: the next message starts it again. */
	ended: boolean;
	/** Recent message ids, newest last: a redelivered one resumes the outbox instead of stepping. */
	handled: string[];
	outbox: OutboxEntry[];
	/** The silence timer of the current state, mirrored in the store's due index. */
	timer: { dueAt: number; state: string } | null;
	seq: number;
	updatedAt: number;
	/** The latest own time (ms) of a message applied: an older one arriving now is late. */
	lastSentAt?: number;
	/** When it entered its current state (the analytics' time to the next state). */
	enteredAt?: number;
	/** The states reached in this run, with the day first reached (analytics/reached.ts). */
	reached?: Reached | ReachedBefore;
	/** Where the analytics count it stopped (analytics/stops.ts). */
	stop?: Stop | StopBefore;
	/** The client's latest-written message applied (its time when it had one): where healing reads on from. */
	lastInbound?: { id: string; at?: number };
	/** What the last healing from the client's history did, when it did or left anything. */
	healing?: HealingNote;
}

/** The outcome of healing a conversation from the client's history (engine/healer.ts). */
export interface HealingNote {
	/** When (ms). */
	at: number;
	/**
	 * When the history this note stands on was read (ms), once what it showed was stored: every
	 * process that began (or learnt of a lost write) before then trusts that reading as its own.
	 */
	readAt?: number;
	/** Messages of the client the history showed and the conversation had not applied: put in its inbox. */
	healed: string[];
	/** The history's messages from the client it could not place (no id or no time): left to Late Messages. */
	unplaced: number;
	/** Why the history could not be read or used; what it would have healed is left to Late Messages. */
	error?: string;
}

/**
 * How many message ids a conversation remembers: enough for redeliveries of messages still in
 * flight; older ones are stopped by the store's claim, which lasts 48 hours.
 */
export const HANDLED_LIMIT = 20;

export function conversationKey(botId: string, clientId: string): string {
	return `${encodeURIComponent(botId)}:${encodeURIComponent(clientId)}`;
}

export function encodeRecord(record: ConversationRecord): string {
	return JSON.stringify(record);
}

export function decodeRecord(value: string): ConversationRecord {
	const record = JSON.parse(value) as ConversationRecord;
	if (record.format !== 1) throw new Error(`Unknown conversation format ${String(record.format)}`);
	return record;
}

/** The cause of the effects a silence timer due at `dueAt` decided. */
export function timerCause(dueAt: number): string {
	return `timer@${dueAt}`;
}

/**
 * The replies of `cause` not yet sent are looked for in the client's history since `since` before
 * they are sent (perform-effect.ts): they may have gone out before the store lost its writes.
 */
export function checkFirst(record: ConversationRecord, cause: string, since: number): void {
	for (const entry of record.outbox)
		if (entry.cause === cause && entry.effect.kind === 'reply' && entry.status === 'pending')
			entry.check = { since };
}

/** Entries still to do or in progress; finished ones are dropped when the next step is saved. */
export function unfinished(entry: OutboxEntry): boolean {
	return entry.status === 'pending' || entry.status === 'sending';
}

// ---- views for results and inspection ----

export interface ActionReport {
	id: number;
	cause: string;
	kind: Effect['kind'];
	text?: string;
	add?: string[];
	remove?: string[];
	/** A workflow call: the workflow, its inputs, and what came of it. */
	workflow?: string;
	inputs?: Record<string, string>;
	result?: CallResult;
	status: OutboxStatus;
	error?: string;
	sentId?: string;
}

export interface ConversationView {
	botId: string;
	clientId: string;
	scenario: string;
	version: number;
	state: string;
	vars: Record<string, string>;
	tags: string[];
	handedOff: boolean;
	ended: boolean;
	timer: { dueAt: number; state: string } | null;
	outbox: ActionReport[];
	/** The last healing from the client's history that healed or left something. */
	healing?: HealingNote;
}

export function isProblem(report: ActionReport): boolean {
	return (
		report.status === 'unknown' ||
		report.status === 'failed' ||
		(report.status === 'pending' && !!report.error)
	);
}

export function report(entry: OutboxEntry): ActionReport {
	const effect = entry.effect;
	return {
		id: entry.id,
		cause: entry.cause,
		kind: effect.kind,
		...(effect.kind === 'reply'
			? { text: effect.text }
			: effect.kind === 'tags'
				? { add: effect.add, remove: effect.remove }
				: { workflow: effect.workflow, inputs: effect.inputs }),
		...(entry.result ? { result: entry.result } : {}),
		status: entry.status,
		...(entry.error ? { error: entry.error } : {}),
		...(entry.sentId ? { sentId: entry.sentId } : {}),
	};
}

export function view(record: ConversationRecord): ConversationView {
	const context = record.snapshot.context;
	return {
		botId: record.botId,
		clientId: record.clientId,
		scenario: record.scenario.id,
		version: record.scenario.version,
		state: record.snapshot.value,
		vars: { ...context.vars },
		tags: [...context.client.tags],
		handedOff: context.handedOff,
		ended: record.ended,
		timer: record.timer,
		outbox: record.outbox.map(report),
		...(record.healing ? { healing: record.healing } : {}),
	};
}
