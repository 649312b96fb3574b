import type { ActionReport, ConversationView } from '../durability/record';
import type { HealReport } from './healing/healer';
import type { OlderVersion, Restart } from './stepper';

/** What handling a message gives back, and what becomes of a late one: the engine's vocabulary. */

/** What happens to a message older than one the conversation already applied. */
export type LatePolicy = 'ignore' | 'apply' | 'handoff';

export interface HandleResult {
	/**
	 * started: the message began a conversation; handled: it stepped one; silenced: a human has the
	 * client; late: it was older than a message already applied (see `latePolicy`); duplicate: it
	 * was handled before (any unfinished effects were resumed).
	 */
	status: 'started' | 'handled' | 'silenced' | 'late' | 'duplicate';
	messageId: string;
	/** Missing only when the conversation is not stored (yet, or any more). */
	conversation: ConversationView | undefined;
	/** Effects this call performed or tried, in order. */
	actions: ActionReport[];
	/** Effects whose outcome is unknown (never re-sent), failed, or left to retry. */
	problems: ActionReport[];
	/** This message handed the client to a human. */
	handoff: boolean;
	/** Older than a message already applied; with latePolicy "apply" it was applied all the same. */
	late: boolean;
	/** Why the conversation started over, when it did. */
	restart?: Restart;
	/**
	 * The message was handled on the older version its conversation started on (Live
	 * Conversations: Finish on Their Version), not the live one.
	 */
	olderVersion?: OlderVersion;
	/** Earlier messages of the conversation this call applied first (their own run had stopped). */
	alsoApplied?: HandleResult[];
	/** Read from the client's history, not from a delivery: its delivery never came (or not yet). */
	healed?: true;
	/** This call healed the conversation from the client's history: what it healed or left. */
	healing?: HealReport;
	/** Said once per process: healing from the history is off, and why. */
	notice?: string;
}
