import type { Clock } from '../../api/clock';
import type { StateStore } from '../../stores/types';
import type { ConversationStore } from '../durability/record-store';
import type { CarryOver } from './carry-over';
import type { DueRunner, TimerResult } from './due';
import type { Healer, HealReport } from './healing/healer';
import type { InboxApplier } from './inbox-applier';
import type { HandleResult } from './results';

export interface DueWork {
	/** Accepted messages whose execution stopped before applying them, and messages healed. */
	messages: HandleResult[];
	/** Timers fired and effects resumed. */
	timers: TimerResult[];
	/** Conversations that could not be worked on this time (left for the next run). */
	failures: Array<{ conversation: string; error: string }>;
	/** Conversations the run looked at: with a message waiting, a timer or an effect due. */
	conversations: number;
	/** The moment it looked for timers and effects due by (ms since epoch). */
	dueBy: number;
	/** Conversations carried over from the former scope by this run. */
	carriedOver: number;
	/** Conversations healed from the client's history by this run, each with what it did. */
	healing: HealReport[];
	/** Said once per process: healing from the history is off, and why. */
	notice?: string;
}

/** Runs one conversation's work in its turn; a failure is recorded, never holding up the others. */
export type InTurn = <T>(key: string, work: () => Promise<T>) => Promise<T | undefined>;

export interface ScheduledRunParts {
	store: StateStore;
	inbox: string;
	conversations: ConversationStore;
	applier: InboxApplier;
	dueRunner: DueRunner;
	healer: Healer;
	carryOver?: CarryOver;
	stalledAfterMs: number;
	clock: Pick<Clock, 'now'>;
}

/**
 * The scheduled run ("Run Due Work"): what older versions left under the former scope, then the
 * conversations active shortly before this process began (healed from the client's history,
 * which may show messages n8n answered while starting and never passed on), then the messages
 * whose execution stopped, then unfinished effects and due timers.
 */
export class ScheduledRun {
	constructor(private readonly p: ScheduledRunParts) {}

	async run(now: number, limit: number, inTurn: InTurn, failures: DueWork['failures']) {
		const { p } = this;
		// The due query comes after the stalled work, which may wait minutes for the request budget:
		// it looks as far past `now` as the run has taken, or leases run out meanwhile wait a run.
		const started = p.clock.now();
		const later = () => now + Math.max(0, p.clock.now() - started);
		const before = now - p.stalledAfterMs;
		const swept = (await p.carryOver?.sweep(now, before, limit, inTurn)) ?? {
			keys: [],
			carried: 0,
		};
		const reports: HealReport[] = [];
		const healed = await this.heal(now, limit, inTurn, reports);
		const stalled = [
			...new Set([...swept.keys, ...(await p.store.stalled(p.inbox, before, limit))]),
		];
		const applied = await Promise.all(
			stalled.map((key) => inTurn(key, () => p.applier.apply(key))),
		);
		const dueAt = later();
		const due = await p.conversations.due(dueAt, limit);
		const notice = p.healer.session.takeOffNotice();
		const work: DueWork = {
			messages: [...healed.messages, ...applied.flatMap((r) => r ?? [])],
			timers: await this.timers(due, dueAt, inTurn, reports),
			failures,
			conversations: new Set([...stalled, ...due, ...healed.keys]).size,
			dueBy: dueAt,
			carriedOver: swept.carried,
			healing: reports,
			...(notice ? { notice } : {}),
		};
		return work;
	}

	/** Fires the due timers and resumes what stopped workers left, each after a takeover's healing. */
	async timers(
		keys: string[],
		now: number,
		inTurn: InTurn,
		reports: HealReport[] = [],
	): Promise<TimerResult[]> {
		const fired = await Promise.all(
			keys.map((key) =>
				inTurn(key, async () => {
					// A worker's lease ran out: the client may have written what it never saw.
					await this.healOne(key, reports);
					return await this.p.dueRunner.run(key, now);
				}),
			),
		);
		return fired.filter((r): r is TimerResult => r !== undefined);
	}

	/** Heals the conversations noted active within the horizon this process has not. */
	private async heal(now: number, limit: number, inTurn: InTurn, reports: HealReport[]) {
		const keys = await this.p.healer.recentlyActive(now, limit);
		const messages = await Promise.all(
			keys.map((key) => inTurn(key, async () => await this.healOne(key, reports))),
		);
		return { keys, messages: messages.flatMap((m) => m ?? []) };
	}

	/** Heals one conversation if it needs it, then applies what it healed. */
	private async healOne(key: string, reports: HealReport[]): Promise<HandleResult[]> {
		const { healer, applier } = this.p;
		const healed = await healer.ensure(key);
		const report = healer.takeReport(key);
		if (report) reports.push(report);
		return healed ? await applier.apply(key) : [];
	}
}
