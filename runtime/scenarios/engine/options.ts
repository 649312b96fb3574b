import type { HealingSession } from './healing/session';
import type { Clock } from '../../api/clock';
import type { StateStore } from '../../stores/types';
import type { CompiledScenario } from '../machine/compile';
import type { CancellableWait } from '../durability/lease-keeper';
import type { ScenarioApi } from '../durability/perform-effect';
import type { WorkflowPort } from '../durability/workflow-call';
import type { ReorderMode } from './reorder-wait';
import type { LatePolicy } from './results';
import type { LiveConversations } from './versions/pinned';

/** What a ScenarioEngine runs, where it keeps its conversations, and how it behaves. */
export interface EngineOptions {
	/** Compiled scenarios; conversations start in `entry` (default: the first). */
	scenarios: readonly CompiledScenario[];
	entry?: string;
	store: StateStore;
	api: ScenarioApi;
	/** Runs the workflows of "call" steps (the Scenario node: n8n's executeWorkflow). */
	workflows?: WorkflowPort;
	/** `sleep` is needed only with a reorder window. */
	clock: Pick<Clock, 'now'> & Partial<Pick<Clock, 'sleep'>>;
	/**
	 * Whose conversations these are, in the store: engines with the same scope share them (default
	 * "default"; the Scenario node gives `conversationScope()` of its scenario).
	 */
	scope?: string;
	/** Where older versions kept these conversations: carried over from there on first use. */
	formerScope?: string;
	/** How long a message id is remembered against redeliveries (default 48 h, as the trigger's). */
	dedupeTtlMs?: number;
	/** How long a worker may take to perform one effect before another treats it as crashed. */
	leaseMs?: number;
	/**
	 * A cancellable wait in real time (n8n's `sleep` with a signal), so a lease is renewed while
	 * its effect waits for the request budget. Without it, leases are not renewed.
	 */
	wait?: CancellableWait;
	/** The process's monotonic clock (ms), which fences leases; tests pass a fake one. */
	monotonic?: () => number;
	/** Attempts at an effect the service certainly refused, before it is marked failed. */
	maxAttempts?: number;
	/**
	 * The longest an accepted message waits for earlier-written ones of the same client to arrive
	 * (default 0: applied in the order accepted).
	 */
	reorderWindowMs?: number;
	/**
	 * adaptive (default): a message waits only as long as deliveries have lately overtaken each
	 * other (reorder-wait.ts); fixed: every message waits the whole window.
	 */
	reorderMode?: ReorderMode;
	/** Default ignore: a late message is recorded as late and steps nothing. */
	latePolicy?: LatePolicy;
	/** How long a conversation is kept after its last change (default 30 days). */
	retentionMs?: number;
	/** How long an accepted message may wait before the scheduled run applies it (default 15 s). */
	stalledAfterMs?: number;
	/**
	 * The analytics counters (analytics.ts), kept `daysKept` days (default 90); false: none are
	 * written.
	 */
	analytics?: { daysKept?: number } | false;
	/**
	 * Healing from the client's history (engine/healer.ts): conversations active within
	 * `horizonMs` (default 15 minutes) before this process began are healed once. `session`:
	 * this process's (default: one per store and scope, begun with the first engine on them).
	 */
	healing?: { horizonMs?: number; session?: HealingSession };
	/**
	 * A live conversation started on an older version of its scenario: finish (default) steps it
	 * with that version's definition, kept in the store (engine/versions/); move follows the live
	 * version, states matched by name.
	 */
	liveConversations?: LiveConversations;
}
