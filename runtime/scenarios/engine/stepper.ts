import type { CompiledScenario, Step } from '../machine/compile';
import type { ConversationContext } from '../machine/setup';
import {
	HANDLED_LIMIT,
	timerCause,
	unfinished,
	type ConversationRecord,
	type OutboxEntry,
} from '../durability/record';
import { notePath, noteStep, stepPath } from '../analytics/step-notes';
import type { ScenarioRef } from '../analytics/counter-keys';
import type { MessageReceived } from './inbox';
import type { ClientProfile, MessageFields } from '../format/templates';
import { currentMachine, type CurrentMachine } from './current-machine';
import { followJump } from './jump';

export type Restart = 'new' | 'ended' | 'scenario-changed' | 'scenario-removed';
export type StepStatus = 'started' | 'handled' | 'silenced';
/** A message handled on the version its conversation started on, older than the live one. */
export type OlderVersion = { version: number; liveVersion: number };

/**
 * Computes conversation steps: which machine and snapshot a stored conversation has under the
 * scenarios loaded now, and the record to save after a message, a timer, a release or a workflow
 * call's outcome. Pure: it reads and writes nothing; the engine saves what it returns.
 */
export class Stepper {
	constructor(
		readonly scenarios: ReadonlyMap<string, CompiledScenario>,
		private readonly entry: CompiledScenario,
		/**
		 * The definition of the older version a conversation is pinned to, when it finishes there
		 * (engine/versions/pinned.ts); undefined: it follows the live version.
		 */
		private readonly pinned: (ref: ScenarioRef) => CompiledScenario | undefined = () => undefined,
	) {}

	/** The conversation's machine and snapshot (current-machine.ts). */
	current(record: ConversationRecord): CurrentMachine | undefined {
		return currentMachine(this.scenarios, this.pinned, record);
	}

	/** Follows a jump into its scenario, then builds the record to save with the new effects. */
	recordAfterStep(
		record: ConversationRecord | undefined,
		compiled: CompiledScenario,
		step: Step,
		how: {
			/** What the new outbox entries are for: a message id, a timer, a release. */
			cause: string;
			now: number;
			/** Arm the silence timer of the state the step ends in, or leave none. */
			timer: 'arm' | 'clear';
			ids?: { botId: string; clientId: string };
			message?: MessageFields;
		},
	): ConversationRecord {
		const { cause, now, timer } = how;
		const ids = how.ids ?? record ?? { botId: '', clientId: '' };
		const { scenario, snapshot, effects, path } = followJump(
			this.scenarios,
			compiled,
			step,
			how.message,
		);
		const persisted = scenario.persist(snapshot);
		const ended = snapshot.status === 'done';
		const context: ConversationContext = persisted.context;
		const minutes = scenario.timerMinutes(persisted.value);
		const armed =
			timer === 'arm' && !ended && !context.handedOff && minutes !== undefined
				? { dueAt: now + minutes * 60_000, state: persisted.value }
				: null;
		let seq = record?.seq ?? 0;
		const outbox = [
			...(record?.outbox.filter(unfinished) ?? []),
			...effects.map(
				(effect): OutboxEntry => ({ id: ++seq, cause, effect, status: 'pending', attempts: 0 }),
			),
		];
		return notePath(
			{
				format: 1,
				botId: ids.botId,
				clientId: ids.clientId,
				scenario: { id: scenario.id, version: scenario.version },
				snapshot: persisted,
				ended,
				handled: record?.handled ?? [],
				outbox,
				timer: armed,
				seq,
				updatedAt: now,
				// Where the client's messages stand, carried from step to step (the applier moves it on).
				...(record?.lastSentAt === undefined ? {} : { lastSentAt: record.lastSentAt }),
				...(record?.lastInbound ? { lastInbound: record.lastInbound } : {}),
				...(record?.healing ? { healing: record.healing } : {}),
			},
			path,
		);
	}

	stepMessage(
		record: ConversationRecord | undefined,
		message: MessageReceived,
		profile: ClientProfile,
		now: number,
	): {
		record: ConversationRecord;
		outcome: {
			status: StepStatus;
			handoff: boolean;
			restart?: Restart;
			olderVersion?: OlderVersion;
		};
	} {
		const fields = fieldsOf(message);
		const current = record && !record.ended ? this.current(record) : undefined;
		if (record && !record.ended && !current?.snapshot && record.snapshot.context.handedOff) {
			// A human has the client: the bot stays silent, whatever changed in the scenario.
			return {
				record: silenced(record, message, now),
				outcome: { status: 'silenced', handoff: false },
			};
		}
		const { compiled, step, status, restart, handedOffBefore } = this.begin(
			record,
			current,
			fields,
			profile,
		);
		const next = this.recordAfterStep(record, compiled, step, {
			cause: message.message_id,
			now,
			timer: 'arm',
			ids: { botId: message.bot_id, clientId: message.client_id },
			message: fields,
		});
		next.handled = [...(record?.handled ?? []), message.message_id].slice(-HANDLED_LIMIT);
		noteStep(next, { event: 'message', started: status === 'started', notes: step.notes });
		const handoff = !handedOffBefore && next.snapshot.context.handedOff;
		const older = current?.snapshot && current.live;
		const olderVersion = older
			? { olderVersion: { version: compiled.version, liveVersion: older.version } }
			: {};
		return { record: next, outcome: { status, handoff, restart, ...olderVersion } };
	}

	/**
	 * A message's step on the conversation's machine; or the start of a new one, when there is
	 * none, it ended, or its state is gone from its scenario (why, in `restart`).
	 */
	private begin(
		record: ConversationRecord | undefined,
		current: CurrentMachine | undefined,
		fields: MessageFields,
		profile: ClientProfile,
	): {
		compiled: CompiledScenario;
		step: Step;
		status: StepStatus;
		restart?: Restart;
		handedOffBefore: boolean;
	} {
		if (current?.snapshot) {
			const handedOffBefore = current.snapshot.context.handedOff;
			return {
				compiled: current.compiled,
				step: current.compiled.step(current.snapshot, {
					type: 'MESSAGE',
					message: fields,
					client: profile,
				}),
				status: handedOffBefore ? 'silenced' : 'handled',
				handedOffBefore,
			};
		}
		const compiled = current?.compiled ?? this.entry;
		const restart: Restart = !record
			? 'new'
			: record.ended
				? 'ended'
				: current
					? 'scenario-changed'
					: 'scenario-removed';
		// A client's split variants outlive its conversation (format/split.ts).
		const splits = record?.snapshot.context.splits;
		const step = compiled.start({
			client: profile,
			message: fields,
			...(splits ? { splits } : {}),
		});
		return { compiled, step, status: 'started', restart, handedOffBefore: false };
	}

	/**
	 * Steps the conversation with a call's outcome, in the same record write that records it. The
	 * record keeps every outbox entry (this drain reports them); the step's effects are added after.
	 * A conversation that has left the calling state meanwhile (a keyword) ignores the outcome.
	 */
	afterCall(record: ConversationRecord, entry: OutboxEntry, now: number): ConversationRecord {
		const effect = entry.effect;
		const result = entry.result;
		if (effect.kind !== 'workflow' || !result) return record;
		const current = this.current(record);
		if (!current?.snapshot || current.snapshot.value !== effect.state) return record;
		const step = current.compiled.step(current.snapshot, { type: 'RESULT', ...result });
		const next = this.recordAfterStep(record, current.compiled, step, {
			cause: `call@${entry.id}`,
			now,
			timer: 'arm',
		});
		const resumed = {
			...next,
			outbox: [...record.outbox, ...next.outbox.filter((e) => e.id > record.seq)],
			...(record.lastSentAt === undefined ? {} : { lastSentAt: record.lastSentAt }),
		};
		return noteStep(notePath(resumed, stepPath(next)), { event: 'result', notes: step.notes });
	}

	/** The record after its silence timer fired (the timer is known to be due). */
	afterTimer(record: ConversationRecord, now: number): ConversationRecord {
		const timer = record.timer as NonNullable<ConversationRecord['timer']>;
		const current = this.current(record);
		// The state is gone from the scenario: the timer is dropped, the next message decides.
		if (!current?.snapshot || current.snapshot.value !== timer.state)
			return { ...record, timer: null, updatedAt: now };
		const step = current.compiled.step(current.snapshot, { type: 'TIMER' });
		const rearm = current.compiled.document.states[timer.state]?.after?.target !== undefined;
		const next = this.recordAfterStep(record, current.compiled, step, {
			cause: timerCause(timer.dueAt),
			now,
			// A timer that stays in its state fires once; one that moves arms the next state's.
			timer: rearm ? 'arm' : 'clear',
		});
		return noteStep(next, { event: 'timer', notes: step.notes });
	}

	/** The record after a human gave the conversation back to the bot. */
	afterRelease(record: ConversationRecord, now: number): ConversationRecord {
		const current = this.current(record);
		if (!current?.snapshot) {
			// The scenario lost the state meanwhile: the handoff ends and the next message restarts.
			const context = { ...record.snapshot.context, handedOff: false };
			return { ...record, snapshot: { ...record.snapshot, context }, updatedAt: now };
		}
		const step = current.compiled.step(current.snapshot, { type: 'RELEASE' });
		const next = this.recordAfterStep(record, current.compiled, step, {
			cause: `release@${now}`,
			now,
			timer: 'arm',
		});
		return noteStep(next, { event: 'release', notes: step.notes });
	}
}

/** The fields of a message a scenario may quote. */
function fieldsOf(message: MessageReceived): MessageFields {
	return {
		text: message.text,
		message_id: message.message_id,
		...(message.channel === undefined ? {} : { channel: message.channel }),
		...(message.timestamp === undefined ? {} : { timestamp: message.timestamp }),
	};
}

/** The record after a message to a conversation a human has: only the message's id is kept. */
function silenced(
	record: ConversationRecord,
	message: MessageReceived,
	now: number,
): ConversationRecord {
	const kept = {
		...record,
		handled: [...record.handled, message.message_id].slice(-HANDLED_LIMIT),
		updatedAt: now,
	};
	return noteStep(kept, { event: 'message' });
}
