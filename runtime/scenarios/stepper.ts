import {
	declaredVariables,
	JUMP_STATE,
	type CompiledScenario,
	type ConversationContext,
	type ScenarioSnapshot,
	type Step,
} from './compile';
import {
	HANDLED_LIMIT,
	unfinished,
	type ConversationRecord,
	type OutboxEntry,
} from './conversation';
import type { MessageReceived } from './inbox';
import type { ClientProfile, MessageFields } from './templates';

export type Restart = 'new' | 'ended' | 'scenario-changed' | 'scenario-removed';
export type StepStatus = 'started' | 'handled' | 'silenced';

/**
 * Computes conversation steps: which machine and snapshot a stored conversation has under the
 * scenarios loaded now, and the record to save after a message, a timer or a release. Pure: it
 * reads and writes nothing; the engine saves what it returns.
 */
export class Stepper {
	constructor(
		readonly scenarios: ReadonlyMap<string, CompiledScenario>,
		private readonly entry: CompiledScenario,
	) {}

	/**
	 * The conversation's machine and snapshot under the scenarios loaded now. The rule when a
	 * scenario changed under a live conversation: continue if its current state still exists
	 * (variables it no longer declares are dropped, a capture's tries start over), else start over.
	 */
	current(
		record: ConversationRecord,
	): { compiled: CompiledScenario; snapshot: ScenarioSnapshot | undefined } | undefined {
		const compiled = this.scenarios.get(record.scenario.id);
		if (!compiled) return undefined;
		const { value, context } = record.snapshot;
		if (!compiled.stateNames.has(value) || compiled.document.states[value]?.end)
			return { compiled, snapshot: undefined };
		if (compiled.version === record.scenario.version)
			return { compiled, snapshot: compiled.restore(record.snapshot) };
		const declared = declaredVariables(compiled.document);
		const vars = Object.fromEntries(
			Object.entries(context.vars).filter(([name]) => declared.has(name)),
		);
		return {
			compiled,
			snapshot: compiled.restore({ value, context: { ...context, vars, tries: 0 } }),
		};
	}

	/** Follows a jump into its scenario, then builds the record to save with the new effects. */
	commitStep(
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
		let scenario = compiled;
		let { snapshot } = step;
		const effects = [...step.effects];
		const jump = snapshot.value === JUMP_STATE ? snapshot.context.jump : null;
		if (jump) {
			const target = this.scenarios.get(jump.scenario);
			// validateScenarioSet guarantees the target; the check keeps the types honest.
			if (!target) throw new Error(`No scenario "${jump.scenario}" is loaded`);
			const declared = declaredVariables(target.document);
			const vars = Object.fromEntries(
				Object.entries(snapshot.context.vars).filter(([name]) => declared.has(name)),
			);
			const entered = target.initial({
				entry: jump.state,
				client: snapshot.context.client,
				vars,
				...(how.message ? { message: how.message } : {}),
			});
			scenario = target;
			snapshot = entered.snapshot;
			effects.push(...entered.effects);
		}
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
		return {
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
		};
	}

	stepMessage(
		record: ConversationRecord | undefined,
		message: MessageReceived,
		profile: ClientProfile,
		now: number,
	): {
		record: ConversationRecord;
		outcome: { status: StepStatus; handoff: boolean; restart?: Restart };
	} {
		const fields: MessageFields = {
			text: message.text,
			message_id: message.message_id,
			...(message.channel === undefined ? {} : { channel: message.channel }),
			...(message.timestamp === undefined ? {} : { timestamp: message.timestamp }),
		};
		const current = record && !record.ended ? this.current(record) : undefined;
		if (record && !record.ended && !current?.snapshot && record.snapshot.context.handedOff) {
			// A human has the client: the bot stays silent, whatever changed in the scenario.
			return {
				record: {
					...record,
					handled: [...record.handled, message.message_id].slice(-HANDLED_LIMIT),
					updatedAt: now,
				},
				outcome: { status: 'silenced', handoff: false },
			};
		}
		let compiled: CompiledScenario;
		let step: Step;
		let restart: Restart | undefined;
		let status: StepStatus = 'handled';
		let handedOffBefore = false;
		if (current?.snapshot) {
			compiled = current.compiled;
			handedOffBefore = current.snapshot.context.handedOff;
			step = compiled.step(current.snapshot, { type: 'MESSAGE', message: fields, client: profile });
			if (handedOffBefore) status = 'silenced';
		} else {
			// A new conversation; or one that ended, or whose state its scenario no longer has.
			compiled = current?.compiled ?? this.entry;
			restart = !record
				? 'new'
				: record.ended
					? 'ended'
					: current
						? 'scenario-changed'
						: 'scenario-removed';
			step = compiled.initial({ client: profile, message: fields });
			status = 'started';
		}
		const next = this.commitStep(record, compiled, step, {
			cause: message.message_id,
			now,
			timer: 'arm',
			ids: { botId: message.bot_id, clientId: message.client_id },
			message: fields,
		});
		next.handled = [...(record?.handled ?? []), message.message_id].slice(-HANDLED_LIMIT);
		const handoff = !handedOffBefore && next.snapshot.context.handedOff;
		return { record: next, outcome: { status, handoff, restart } };
	}
}
