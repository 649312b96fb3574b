import type { StateStore } from '../../stores/types';
import { ScenarioValidationError } from '../format/issue';
import { validateScenarioSet } from '../format/validate';
import type { CompiledScenario } from '../machine/compile';
import { arrivalHistoryOf } from './reorder-wait';
import { OutboxRunner } from '../durability/outbox';
import {
	conversationKey,
	view,
	type ActionReport,
	type ConversationView,
} from '../durability/record';
import { ConversationStore } from '../durability/record-store';
import { AGAIN, BOUNDS, keptChanging, retry } from '../durability/retry';
import { DueRunner } from './due';
import { Healer } from './healing/healer';
import { healingSessionOf, repliesKnown } from './healing/session';
import { ScheduledRun, type DueWork } from './scheduled-run';
import {
	checkEvent,
	encodeInbound,
	inboxClaims,
	inboxNamespace,
	inboxQueue,
	type MessageReceived,
} from './inbox';
import { InboxApplier } from './inbox-applier';
import { KeyedQueue } from './keyed-queue';
import { CarryOver } from './carry-over';
import { recordsNamespace } from './scope';
import type { HandleResult } from './results';
import { Stepper } from './stepper';
import type { EngineOptions } from './options';
import { Versioning, type VersionListed } from './versions/versioning';
import type { MovePlan } from './versions/move-plan';
import type { MovePreview, MoveReport } from './versions/move';
import { stateOrder } from '../analytics/main-path';
import { readAnalytics, type AnalyticsQuery, type AnalyticsReport } from '../analytics/reading';
import { DEFAULT_DAYS_KEPT } from '../analytics/counter-keys';

export type { EngineOptions } from './options';
export type { DueWork } from './scheduled-run';

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
	private readonly scope: string;
	private readonly conversations: ConversationStore;
	private readonly outbox: OutboxRunner;
	private readonly dueRunner: DueRunner;
	private readonly applier: InboxApplier;
	private readonly queue = new KeyedQueue();
	private readonly carryOver: CarryOver | undefined;
	private readonly healer: Healer;
	private readonly scheduled: ScheduledRun;
	private readonly versioning: Versioning;
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
		this.scope = scope;
		const analytics = options.analytics ?? {};
		const daysKept = (analytics ? analytics.daysKept : undefined) ?? DEFAULT_DAYS_KEPT;
		this.conversations = new ConversationStore(options.store, recordsNamespace(scope), {
			retentionMs: options.retentionMs ?? 30 * DAY,
			recheckMs: Math.min(leaseMs, 30_000),
			...(analytics ? { counters: { scope, daysKept } } : {}),
		});
		this.versioning = new Versioning({
			...{ store: options.store, clock: options.clock, scope, live: this.scenarios },
			...{ entry: entry.id, conversations: this.conversations },
			// A definition outlives its conversations and the analytics period.
			keepMs: Math.max(options.retentionMs ?? 30 * DAY, (analytics ? daysKept : 0) * DAY),
			mode: options.liveConversations ?? 'finish',
		});
		this.stepper = new Stepper(this.scenarios, entry, this.versioning.pinnedDefinition);
		this.outbox = new OutboxRunner({
			conversations: this.conversations,
			api: options.api,
			clock: options.clock,
			leaseMs,
			workflows: options.workflows,
			resume: (record, entry, now) => this.stepper.afterCall(record, entry, now),
			maxAttempts: options.maxAttempts ?? 3,
			wait: options.wait,
			monotonic: options.monotonic,
			knownHistory: (clientId) => repliesKnown(this.healer.session, clientId, options),
		});
		const former = options.formerScope;
		this.carryOver =
			former === undefined || former === scope
				? undefined
				: new CarryOver(options.store, former, {
						to: { conversations: this.conversations, inbox: this.inbox },
						clock: options.clock,
						dedupeTtlMs: this.settings.dedupeTtlMs,
					});
		this.dueRunner = new DueRunner(
			this.conversations,
			this.stepper,
			this.outbox,
			() => this.healer.session.lossFound,
		);
		this.healer = this.healerFor(options, scope);
		this.applier = new InboxApplier(this.inbox, {
			store: options.store,
			conversations: this.conversations,
			stepper: this.stepper,
			outbox: this.outbox,
			api: options.api,
			clock: options.clock,
			readsClient: options.scenarios.some((s) => s.readsClient),
			readsOrders: options.scenarios.some((s) => s.readsOrders),
			reorder: { mode: options.reorderMode ?? 'adaptive', windowMs: this.settings.reorderWindowMs },
			arrivals: arrivalHistoryOf(this.inbox),
			latePolicy: this.settings.latePolicy,
			heal: async (key, loaded, context) => await this.healer.check(key, loaded, context),
			lossFound: () => this.healer.session.lossFound,
		});
		this.scheduled = new ScheduledRun({
			store: options.store,
			inbox: this.inbox,
			conversations: this.conversations,
			applier: this.applier,
			dueRunner: this.dueRunner,
			healer: this.healer,
			carryOver: this.carryOver,
			stalledAfterMs: this.settings.stalledAfterMs,
			clock: this.clock,
		});
	}

	private healerFor(options: EngineOptions, scope: string): Healer {
		const { store, api, clock } = options;
		return new Healer({
			store,
			inbox: this.inbox,
			active: `active:${scope}`,
			conversations: this.conversations,
			api,
			clock,
			session: options.healing?.session ?? healingSessionOf(store, scope, clock.now()),
			horizonMs: options.healing?.horizonMs ?? 15 * 60_000,
			dedupeTtlMs: this.settings.dedupeTtlMs,
			wait: options.wait,
		});
	}

	/** The funnel of this scope's conversations over a period (analytics.ts). */
	async analytics(query: AnalyticsQuery): Promise<AnalyticsReport> {
		const order = (id: string) => {
			const compiled = this.scenarios.get(id);
			return compiled && stateOrder(compiled.document);
		};
		const now = query.now ?? this.clock.now();
		return await readAnalytics(this.store, { ...query, now, scope: this.scope, order });
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
		const noted = this.healer.takeLoss().then(async (loss) => {
			lossSaid = loss;
			await this.healer.note(key);
		});
		let lossSaid: string | undefined;
		// Awaited in turn below: a failure is not unhandled.
		appended.catch(() => undefined);
		noted.catch(() => undefined);
		// Once per engine (and per process): this version is recorded in the store.
		const seen = this.versioning.seen();
		return this.queue.run(key, async () => {
			await Promise.all([appended, noted, seen]);
			const applied = await this.applier.apply(key, message.message_id);
			const own = applied.find((r) => r.messageId === message.message_id);
			const others = applied.filter((r) => r !== own);
			const result = own ?? (await this.applier.duplicate(key, message.message_id));
			const healing = this.healer.takeReport(key);
			const notice = [lossSaid, this.healer.session.takeOffNotice()].filter(Boolean).join(' ');
			return {
				...result,
				...(others.length > 0 ? { alsoApplied: others } : {}),
				...(healing ? { healing } : {}),
				...(notice ? { notice } : {}),
			};
		});
	}

	/**
	 * The scheduled run: applies the messages whose execution stopped before applying them, then
	 * finishes unfinished effects and fires due timers. Safe to run from several schedules at once.
	 */
	async runDueWork(now = this.clock.now(), limit = 500): Promise<DueWork> {
		const failures: DueWork['failures'] = [];
		await this.versioning.seen();
		const loss = await this.healer.takeLoss();
		const work = await this.scheduled.run(now, limit, this.guarded(failures), failures);
		if (loss) work.notice = [loss, work.notice].filter(Boolean).join(' ');
		return work;
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
		const round = async () => {
			const loaded = await this.conversations.read(key);
			const record = loaded.record;
			if (!record || record.ended || !record.snapshot.context.handedOff)
				return { released: false, conversation: record && view(record), actions: [] };
			const now = this.clock.now();
			const done = await this.outbox.commit(
				key,
				loaded,
				this.stepper.afterRelease(record, now),
				now,
			);
			if (!done) return AGAIN;
			return { released: true, conversation: done.conversation, actions: done.actions };
		};
		return this.queue.run(key, () =>
			retry(BOUNDS.write, round, () => keptChanging(key, 'release it')),
		);
	}

	/** The scenario versions the store has seen, the latest first, with their live conversations. */
	async versions(): Promise<VersionListed[]> {
		return await this.versioning.list();
	}

	/** Where a Move would put each live conversation of a version, by the state it is in. */
	async previewMove(plan: MovePlan): Promise<MovePreview> {
		return await this.versioning.preview(plan);
	}

	/** Moves the live conversations of a version to another, each once, by compare-and-set. */
	async moveConversations(plan: MovePlan): Promise<MoveReport> {
		return await this.versioning.move(plan);
	}

	/** The stored conversation, for inspection. */
	async conversation(botId: string, clientId: string): Promise<ConversationView | undefined> {
		const { record } = await this.conversations.read(conversationKey(botId, clientId));
		return record && view(record);
	}
}
