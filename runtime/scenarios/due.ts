import type { ConversationStore, Loaded } from './conversation-store';
import {
	isProblem,
	unfinished,
	view,
	type ActionReport,
	type ConversationRecord,
	type ConversationView,
} from './conversation';
import type { OutboxRunner } from './outbox';
import type { Stepper } from './stepper';

export interface TimerResult {
	/** timer: a silence timer fired; resumed: effects left unfinished by a worker that stopped. */
	kind: 'timer' | 'resumed';
	conversation: ConversationView;
	actions: ActionReport[];
	problems: ActionReport[];
}

/**
 * What the scheduled run does for one conversation marked due: finish the effects a stopped
 * worker left (each reply once, or reported unknown), then fire the silence timer if it is due.
 */
export class DueRunner {
	constructor(
		private readonly conversations: ConversationStore,
		private readonly stepper: Stepper,
		private readonly outbox: OutboxRunner,
	) {}

	async run(key: string, now: number): Promise<TimerResult | undefined> {
		let loaded = await this.conversations.read(key);
		if (!loaded.record) {
			await this.conversations.clearDue(key);
			return undefined;
		}
		const actions: ActionReport[] = [];
		if (loaded.record.outbox.some(unfinished)) {
			const drained = await this.outbox.drain(key, loaded as Saved);
			actions.push(...drained.actions);
			loaded = await this.conversations.read(key);
		}
		const timer = loaded.record?.timer;
		if (loaded.record && timer && timer.dueAt <= now) {
			const fired = await this.fireTimer(key, now, loaded);
			if (fired) return fired;
		}
		if (actions.length === 0 || !loaded.record) return undefined;
		return {
			kind: 'resumed',
			conversation: view(loaded.record),
			actions,
			problems: actions.filter(isProblem),
		};
	}

	private async fireTimer(
		key: string,
		now: number,
		first: Loaded,
	): Promise<TimerResult | undefined> {
		let loaded = first;
		for (let attempt = 1; attempt <= 50; attempt++) {
			if (attempt > 1) loaded = await this.conversations.read(key);
			const record = loaded.record;
			const timer = record?.timer;
			if (!record || !timer || timer.dueAt > now) return undefined;
			const next = this.afterTimer(record, now);
			// The write that fires the timer leases its first effect too.
			const held = this.outbox.leaseFirst(next, now);
			const saved = await this.conversations.write(key, next, loaded.version, now);
			if (!saved) continue;
			const { actions, record: latest } = await this.outbox.drain(key, saved, held);
			return {
				kind: 'timer',
				conversation: view(latest),
				actions,
				problems: actions.filter(isProblem),
			};
		}
		throw new Error(`Conversation ${key} kept changing under 50 attempts to fire its timer`);
	}

	private afterTimer(record: ConversationRecord, now: number): ConversationRecord {
		const timer = record.timer as NonNullable<ConversationRecord['timer']>;
		const current = this.stepper.current(record);
		// The state is gone from the scenario: the timer is dropped, the next message decides.
		if (!current?.snapshot || current.snapshot.value !== timer.state)
			return { ...record, timer: null, updatedAt: now };
		const step = current.compiled.step(current.snapshot, { type: 'TIMER' });
		const rearm = current.compiled.document.states[timer.state]?.after?.target !== undefined;
		return this.stepper.commitStep(record, current.compiled, step, {
			cause: `timer@${timer.dueAt}`,
			now,
			// A timer that stays in its state fires once; one that moves arms the next state's.
			timer: rearm ? 'arm' : 'clear',
		});
	}
}

type Saved = { record: ConversationRecord; version: number };
