import type { Clock } from '../api/clock';
import type { StateStore } from '../stores/types';
import type { CompiledScenario } from './compile';
import {
	conversationKey,
	isProblem,
	view,
	type ActionReport,
	type ConversationRecord,
	type ConversationView,
} from './conversation';
import { ConversationStore } from './conversation-store';
import { DueRunner, type TimerResult } from './due';
import {
	encodeInbound,
	inboxClaims,
	inboxNamespace,
	inboxQueue,
	type MessageReceived,
} from './inbox';
import { InboxApplier } from './inbox-applier';
import { KeyedQueue } from './keyed-queue';
import { resumeAfterCall, type WorkflowPort } from './calls';
import { OutboxRunner, type ScenarioApi } from './outbox';
import type { CancellableWait } from './lease-keeper';
import { Stepper, type Restart } from './stepper';
import { ScenarioValidationError, validateScenarioSet } from './validate';

/** What happens to a message older than one the conversation already applied. */
export type LatePolicy = 'ignore' | 'apply' | 'handoff';

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
	/** Keeps the conversations of several workflows apart in one store (default "default"). */
	scope?: string;
	/** How long a message id is remembered against redeliveries (default 48 h, as the trigger's). */
	dedupeTtlMs?: number;
	/** How long a worker may take to perform one effect before another treats it as crashed. */
	leaseMs?: number;
	/**
	 * A cancellable wait in real time (n8n's `sleep` with a signal), so a lease is renewed while
	 * its effect waits for the request budget. Without it, leases are not renewed.
	 */
	wait?: CancellableWait;
	/** Attempts at an effect the service certainly refused, before it is marked failed. */
	maxAttempts?: number;
	/**
	 * How long an accepted message waits for earlier-written ones of the same client to arrive
	 * (default 0: applied in the order accepted).
	 */
	reorderWindowMs?: number;
	/** Default ignore: a late message is recorded as late and steps nothing. */
	latePolicy?: LatePolicy;
	/** How long a conversation is kept after its last change (default 30 days). */
	retentionMs?: number;
	/** How long an accepted message may wait before the scheduled run applies it (default 15 s). */
	stalledAfterMs?: number;
}

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
	/** Earlier messages of the conversation this call applied first (their own run had stopped). */
	alsoApplied?: HandleResult[];
}

export interface DueWork {
	/** Accepted messages whose execution stopped before applying them. */
	messages: HandleResult[];
	/** Timers fired and effects resumed. */
	timers: TimerResult[];
	/** Conversations that could not be worked on this time (left for the next run). */
	failures: Array<{ conversation: string; error: string }>;
}

export type { TimerResult };

const DAY = 86_400_000;

/**
 * Runs scenarios for conversations kept in a StateStore. Each message goes through the
 * conversation's inbox and is applied one at a time, in the client's order, by whichever execution
 * or process gets there first; each step is saved with its effects (the outbox) by
 * compare-and-set, and only then performed, each effect's outcome written down before the next.
 */
export class ScenarioEngine {
	readonly scenarios: ReadonlyMap<string, CompiledScenario>;
	private readonly stepper: Stepper;
	private readonly store: StateStore;
	private readonly clock: EngineOptions['clock'];
	private readonly inbox: string;
	private readonly conversations: ConversationStore;
	private readonly outbox: OutboxRunner;
	private readonly dueRunner: DueRunner;
	private readonly applier: InboxApplier;
	private readonly queue = new KeyedQueue();
	private readonly settings: Required<
		Pick<EngineOptions, 'dedupeTtlMs' | 'reorderWindowMs' | 'latePolicy' | 'stalledAfterMs'>
	>;

	constructor(options: EngineOptions) {
		if (options.scenarios.length === 0) throw new Error('The engine needs at least one scenario');
		const issues = validateScenarioSet(options.scenarios.map((s) => s.document));
		if (issues.length > 0) throw new ScenarioValidationError(issues);
		this.scenarios = new Map(options.scenarios.map((s) => [s.id, s]));
		const entry = this.scenarios.get(options.entry ?? options.scenarios[0].id);
		if (!entry) throw new Error(`No scenario "${options.entry}" is loaded`);
		this.stepper = new Stepper(this.scenarios, entry);
		this.store = options.store;
		this.clock = options.clock;
		const scope = options.scope ?? 'default';
		this.inbox = inboxNamespace(scope);
		this.settings = {
			dedupeTtlMs: options.dedupeTtlMs ?? 2 * DAY,
			reorderWindowMs: Math.max(0, options.reorderWindowMs ?? 0),
			latePolicy: options.latePolicy ?? 'ignore',
			stalledAfterMs: options.stalledAfterMs ?? 15_000,
		};
		const leaseMs = options.leaseMs ?? 60_000;
		this.conversations = new ConversationStore(options.store, `scenario:${scope}`, {
			retentionMs: options.retentionMs ?? 30 * DAY,
			recheckMs: Math.min(leaseMs, 30_000),
		});
		this.outbox = new OutboxRunner({
			conversations: this.conversations,
			api: options.api,
			clock: options.clock,
			leaseMs,
			workflows: options.workflows,
			resume: (record, entry, now) => resumeAfterCall(this.stepper, record, entry, now),
			maxAttempts: options.maxAttempts ?? 3,
			wait: options.wait,
		});
		this.dueRunner = new DueRunner(this.conversations, this.stepper, this.outbox);
		this.applier = new InboxApplier(this.inbox, {
			store: options.store,
			conversations: this.conversations,
			stepper: this.stepper,
			outbox: this.outbox,
			api: options.api,
			clock: options.clock,
			readsClient: options.scenarios.some((s) => s.readsClient),
			readsOrders: options.scenarios.some((s) => s.readsOrders),
			reorderWindowMs: this.settings.reorderWindowMs,
			latePolicy: this.settings.latePolicy,
		});
	}

	/**
	 * Handles a message.received event: puts it in its conversation's inbox (unless the trigger
	 * already did) on arrival, so that concurrent appends share a commit, then, in the
	 * conversation's turn, applies the inbox in order up to this message.
	 */
	async handle(event: MessageReceived): Promise<HandleResult> {
		const message = checkEvent(event);
		const key = inboxQueue(message);
		const appended = this.store.enqueue(
			this.inbox,
			key,
			inboxClaims(message.message_id),
			encodeInbound(message),
			this.settings.dedupeTtlMs,
		);
		appended.catch(() => undefined); // awaited in turn below: a failure is not unhandled
		return this.queue.run(key, async () => {
			await appended;
			const applied = await this.applier.apply(key, message.message_id);
			const own = applied.find((r) => r.messageId === message.message_id);
			const others = applied.filter((r) => r !== own);
			const result = own ?? (await this.duplicate(key, message.message_id));
			return others.length > 0 ? { ...result, alsoApplied: others } : result;
		});
	}

	/**
	 * The scheduled run: applies the messages whose execution stopped before applying them, then
	 * finishes unfinished effects and fires due timers. Safe to run from several schedules at once.
	 */
	async runDueWork(now = this.clock.now(), limit = 500): Promise<DueWork> {
		const failures: DueWork['failures'] = [];
		const guarded = this.guarded(failures);
		const stalled = await this.store.stalled(this.inbox, now - this.settings.stalledAfterMs, limit);
		const messages = (
			await Promise.all(stalled.map((key) => guarded(key, () => this.applier.apply(key))))
		).flatMap((r) => r ?? []);
		return { messages, timers: await this.dueTimers(now, limit, guarded), failures };
	}

	/** Fires the silence timers due at `now` and resumes effects a stopped worker left. */
	async fireDueTimers(now = this.clock.now(), limit = 500): Promise<TimerResult[]> {
		return await this.dueTimers(now, limit, this.guarded([]));
	}

	private async dueTimers(
		now: number,
		limit: number,
		guarded: ReturnType<ScenarioEngine['guarded']>,
	): Promise<TimerResult[]> {
		const keys = await this.conversations.due(now, limit);
		return (
			await Promise.all(keys.map((key) => guarded(key, () => this.dueRunner.run(key, now))))
		).filter((r): r is TimerResult => r !== undefined);
	}

	/** Runs one conversation's work in turn; a failure (its store write, say) is recorded, never
	 * holding up the others. */
	private guarded(failures: DueWork['failures']) {
		return async <T>(key: string, work: () => Promise<T>): Promise<T | undefined> => {
			try {
				return await this.queue.run(key, work);
			} catch (error) {
				failures.push({ conversation: key, error: (error as Error).message });
				return undefined;
			}
		};
	}

	/** Gives a handed-off conversation back to the bot. False when it was not handed off. */
	async release(
		botId: string,
		clientId: string,
	): Promise<{ released: boolean; conversation?: ConversationView; actions: ActionReport[] }> {
		const key = conversationKey(botId, clientId);
		return this.queue.run(key, async () => {
			for (let attempt = 1; attempt <= 50; attempt++) {
				const loaded = await this.conversations.read(key);
				const record = loaded.record;
				if (!record || record.ended || !record.snapshot.context.handedOff)
					return { released: false, conversation: record && view(record), actions: [] };
				const now = this.clock.now();
				const next = this.released(record, now);
				const held = this.outbox.leaseFirst(next, now);
				const saved = await this.conversations.write(key, next, loaded.version, now);
				if (!saved) continue;
				const drained = await this.outbox.drain(key, saved, held);
				return { released: true, conversation: view(drained.record), actions: drained.actions };
			}
			throw new Error(`Conversation ${key} kept changing under 50 attempts to release it`);
		});
	}

	/** The stored conversation, for inspection. */
	async conversation(botId: string, clientId: string): Promise<ConversationView | undefined> {
		const { record } = await this.conversations.read(conversationKey(botId, clientId));
		return record && view(record);
	}

	private async duplicate(key: string, messageId: string): Promise<HandleResult> {
		const loaded = await this.conversations.read(key);
		const { actions, record } = loaded.record
			? await this.outbox.drain(key, { record: loaded.record, version: loaded.version })
			: { actions: [], record: undefined };
		return {
			status: 'duplicate',
			late: false,
			messageId,
			conversation: record && view(record),
			actions,
			problems: actions.filter(isProblem),
			handoff: false,
		};
	}

	private released(record: ConversationRecord, now: number): ConversationRecord {
		const current = this.stepper.current(record);
		if (!current?.snapshot) {
			// The scenario lost the state meanwhile: the handoff ends and the next message restarts.
			const context = { ...record.snapshot.context, handedOff: false };
			return { ...record, snapshot: { ...record.snapshot, context }, updatedAt: now };
		}
		const step = current.compiled.step(current.snapshot, { type: 'RELEASE' });
		return this.stepper.commitStep(record, current.compiled, step, {
			cause: `release@${now}`,
			now,
			timer: 'arm',
		});
	}
}

function checkEvent(event: MessageReceived): MessageReceived {
	for (const field of ['message_id', 'client_id', 'bot_id'] as const) {
		if (typeof event?.[field] !== 'string' || event[field] === '')
			throw new TypeError(`A message.received event needs a non-empty ${field}`);
	}
	return { ...event, text: typeof event.text === 'string' ? event.text : '' };
}

export type { MessageReceived, ScenarioApi };
