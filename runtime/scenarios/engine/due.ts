import {
	checkFirst,
	timerCause,
	unfinished,
	view,
	type ActionReport,
	type ConversationRecord,
	type ConversationView,
} from '../durability/record';
import type { ConversationStore, Versioned } from '../durability/record-store';
import type { OutboxRunner } from '../durability/outbox';
import { AGAIN, BOUNDS, keptChanging, retry } from '../durability/retry';
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
		/** When the store's loss of writes was found, if it was (see InboxApplierOptions). */
		private readonly lossFound: () => number | undefined = () => undefined,
	) {}

	async run(key: string, now: number): Promise<TimerResult | undefined> {
		let loaded = await this.conversations.read(key);
		if (!loaded.record) {
			await this.conversations.dropDue(key);
			return undefined;
		}
		const resumed = loaded.record.outbox.some(unfinished)
			? await this.outbox.drain(key, { record: loaded.record, version: loaded.version })
			: undefined;
		if (resumed) loaded = await this.conversations.read(key);
		const timer = loaded.record?.timer;
		if (loaded.record && timer && timer.dueAt <= now) {
			const fired = await this.fireTimer(key, now, loaded);
			if (fired) return fired;
		}
		if (!resumed || resumed.actions.length === 0 || !loaded.record) return undefined;
		const { actions, problems } = resumed;
		return { kind: 'resumed', conversation: view(loaded.record), actions, problems };
	}

	private async fireTimer(
		key: string,
		now: number,
		first: Versioned<ConversationRecord | undefined>,
	): Promise<TimerResult | undefined> {
		const round = async (attempt: number): Promise<TimerResult | undefined | typeof AGAIN> => {
			const loaded = attempt === 1 ? first : await this.conversations.read(key);
			const record = loaded.record;
			if (!record?.timer || record.timer.dueAt > now) return undefined;
			const fired = this.stepper.afterTimer(record, now);
			// Due before the loss was found: it may have fired then, its reply in the history.
			const dueAt = record.timer.dueAt;
			const lossFound = this.lossFound();
			if (lossFound !== undefined && dueAt < lossFound) checkFirst(fired, timerCause(dueAt), dueAt);
			// The write that fires the timer leases its first effect too.
			const done = await this.outbox.commit(key, loaded, fired, now);
			if (!done) return AGAIN;
			const { conversation, actions, problems } = done;
			return { kind: 'timer', conversation, actions, problems };
		};
		return await retry(BOUNDS.write, round, () => keptChanging(key, 'fire its timer'));
	}
}
