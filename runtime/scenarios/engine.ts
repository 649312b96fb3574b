import type { Clock } from '../api/clock';
import type { StateStore } from '../stores/types';
import {
	declaredVariables,
	JUMP_STATE,
	type CompiledScenario,
	type ConversationContext,
	type ScenarioSnapshot,
	type Step,
} from './compile';
import {
	conversationKey,
	decodeRecord,
	encodeRecord,
	HANDLED_LIMIT,
	isProblem,
	unfinished,
	view,
	type ActionReport,
	type ConversationRecord,
	type ConversationView,
	type OutboxEntry,
} from './conversation';
import { KeyedQueue } from './keyed-queue';
import { OutboxRunner, type ScenarioApi } from './outbox';
import type { ClientProfile, MessageFields } from './templates';
import { ScenarioValidationError, validateScenarioSet } from './validate';

/** The `data` of a message.received event. */
export interface MessageReceived {
	message_id: string;
	client_id: string;
	bot_id: string;
	text: string;
	channel?: string;
	timestamp?: string;
}

export interface EngineOptions {
	/** Compiled scenarios; conversations start in `entry` (default: the first). */
	scenarios: readonly CompiledScenario[];
	entry?: string;
	store: StateStore;
	api: ScenarioApi;
	clock: Pick<Clock, 'now'>;
	/** Keeps the conversations of several workflows apart in one store (default "default"). */
	scope?: string;
	/** How long a handled message id is remembered (default 48 h, as the trigger's dedupe). */
	dedupeTtlMs?: number;
	/** How long a worker may take to perform one effect before another treats it as crashed. */
	leaseMs?: number;
	/** Attempts at an effect the service certainly refused, before it is marked failed. */
	maxAttempts?: number;
}

export interface HandleResult {
	/**
	 * started: the message began a conversation; handled: it stepped one; silenced: a human has the
	 * client; duplicate: it was handled before (any unfinished effects were resumed).
	 */
	status: 'started' | 'handled' | 'silenced' | 'duplicate';
	messageId: string;
	/** Missing only for a copy of a conversation's first message still being handled elsewhere. */
	conversation: ConversationView | undefined;
	/** Effects this call performed or tried, in order. */
	actions: ActionReport[];
	/** Effects whose outcome is unknown (never re-sent), failed, or left to retry. */
	problems: ActionReport[];
	/** This message handed the client to a human. */
	handoff: boolean;
	/** Why the conversation started over, when it did. */
	restart?: 'new' | 'ended' | 'scenario-changed' | 'scenario-removed';
}

export interface TimerResult {
	conversation: ConversationView;
	actions: ActionReport[];
	problems: ActionReport[];
}

const DAY = 86_400_000;
const CAS_ATTEMPTS = 50;

type Loaded = { record: ConversationRecord | undefined; version: number };
type Saved = { record: ConversationRecord; version: number };

/**
 * Runs scenarios for conversations kept in a StateStore. Each step is computed by the machine,
 * saved together with its effects (the outbox) by compare-and-set, and only then performed, each
 * effect's outcome written down before the next: a redelivered or retried message resumes the
 * outbox and never sends a reply twice.
 */
export class ScenarioEngine {
	readonly scenarios: ReadonlyMap<string, CompiledScenario>;
	private readonly entry: CompiledScenario;
	private readonly store: StateStore;
	private readonly api: ScenarioApi;
	private readonly clock: Pick<Clock, 'now'>;
	private readonly ns: { conversations: string; messages: string };
	private readonly dedupeTtlMs: number;
	private readonly outbox: OutboxRunner;
	private readonly readsClient: boolean;
	private readonly queue = new KeyedQueue();

	constructor(options: EngineOptions) {
		if (options.scenarios.length === 0) throw new Error('The engine needs at least one scenario');
		const issues = validateScenarioSet(options.scenarios.map((s) => s.document));
		if (issues.length > 0) throw new ScenarioValidationError(issues);
		this.scenarios = new Map(options.scenarios.map((s) => [s.id, s]));
		const entry = this.scenarios.get(options.entry ?? options.scenarios[0].id);
		if (!entry) throw new Error(`No scenario "${options.entry}" is loaded`);
		this.entry = entry;
		this.store = options.store;
		this.api = options.api;
		this.clock = options.clock;
		const scope = options.scope ?? 'default';
		this.ns = { conversations: `scenario:${scope}`, messages: `scenario-message:${scope}` };
		this.dedupeTtlMs = options.dedupeTtlMs ?? 2 * DAY;
		this.outbox = new OutboxRunner({
			store: options.store,
			namespace: this.ns.conversations,
			api: options.api,
			clock: options.clock,
			leaseMs: options.leaseMs ?? 300_000,
			maxAttempts: options.maxAttempts ?? 3,
		});
		this.readsClient = options.scenarios.some((s) => s.readsClient);
	}

	/** Handles a message.received event: one client's messages in order, clients in parallel. */
	async handle(event: MessageReceived): Promise<HandleResult> {
		const message = checkEvent(event);
		const key = conversationKey(message.bot_id, message.client_id);
		return this.queue.run(key, () => this.handleInOrder(message, key));
	}

	/** Fires the silence timers due at `now`; safe to run from several schedules at once. */
	async fireDueTimers(now = this.clock.now(), limit = 500): Promise<TimerResult[]> {
		const keys = await this.store.due(this.ns.conversations, now, limit);
		const fired = await Promise.all(
			keys.map((key) => this.queue.run(key, () => this.fireTimer(key, now))),
		);
		return fired.filter((r): r is TimerResult => r !== undefined);
	}

	/** Gives a handed-off conversation back to the bot. False when it was not handed off. */
	async release(
		botId: string,
		clientId: string,
	): Promise<{ released: boolean; conversation?: ConversationView; actions: ActionReport[] }> {
		const key = conversationKey(botId, clientId);
		return this.queue.run(key, async () => {
			for (let attempt = 1; ; attempt++) {
				const loaded = await this.read(key);
				const record = loaded.record;
				if (!record || record.ended || !record.snapshot.context.handedOff)
					return { released: false, conversation: record && view(record), actions: [] };
				const now = this.clock.now();
				const current = this.current(record);
				if (!current?.snapshot) {
					// The scenario lost the state meanwhile: the handoff ends and the next message restarts.
					const next = {
						...record,
						snapshot: {
							...record.snapshot,
							context: { ...record.snapshot.context, handedOff: false },
						},
					};
					const saved = await this.save(key, next, loaded, attempt);
					if (saved) return { released: true, conversation: view(saved.record), actions: [] };
					continue;
				}
				const { compiled, snapshot } = current;
				const step = compiled.step(snapshot, { type: 'RELEASE' });
				const next = this.commitStep(record, compiled, step, {
					cause: `release@${now}`,
					now,
					timer: 'arm',
				});
				const saved = await this.save(key, next, loaded, attempt);
				if (!saved) continue;
				const drained = await this.outbox.drain(key, saved);
				return { released: true, conversation: view(drained.record), actions: drained.actions };
			}
		});
	}

	/** The stored conversation, for inspection. */
	async conversation(botId: string, clientId: string): Promise<ConversationView | undefined> {
		const { record } = await this.read(conversationKey(botId, clientId));
		return record && view(record);
	}

	// ---- messages ----

	private async handleInOrder(message: MessageReceived, key: string): Promise<HandleResult> {
		let loaded = await this.read(key);
		if (loaded.record?.handled.includes(message.message_id))
			return this.resume(key, loaded, message.message_id);
		// The profile is read before the claim: nothing slow sits between claiming and saving.
		const profile = await this.profileFor(loaded.record, message.client_id);
		const fresh = await this.store.claim(this.ns.messages, message.message_id, this.dedupeTtlMs);
		if (!fresh) return this.resume(key, await this.read(key), message.message_id);
		let saved: Saved | undefined;
		let outcome: Pick<HandleResult, 'status' | 'handoff' | 'restart'> | undefined;
		let handledElsewhere = false;
		try {
			for (let attempt = 1; !saved; attempt++) {
				if (attempt > 1) loaded = await this.read(key);
				if (loaded.record?.handled.includes(message.message_id)) {
					handledElsewhere = true;
					return await this.resume(key, loaded, message.message_id);
				}
				const stepped = this.stepMessage(loaded.record, message, profile);
				outcome = stepped.outcome;
				saved = await this.save(key, stepped.record, loaded, attempt);
			}
		} finally {
			// Failed before saving: a retry of this message must be handled, not dropped.
			if (!saved && !handledElsewhere)
				await this.store.release(this.ns.messages, message.message_id);
		}
		const { actions, record } = await this.outbox.drain(key, saved);
		return {
			status: outcome?.status ?? 'handled',
			messageId: message.message_id,
			conversation: view(record),
			actions,
			problems: actions.filter(isProblem),
			handoff: outcome?.handoff ?? false,
			...(outcome?.restart ? { restart: outcome.restart } : {}),
		};
	}

	private async resume(key: string, loaded: Loaded, messageId: string): Promise<HandleResult> {
		const { actions, record } = loaded.record
			? await this.outbox.drain(key, { record: loaded.record, version: loaded.version })
			: { actions: [], record: undefined };
		return {
			status: 'duplicate',
			messageId,
			conversation: record && view(record),
			actions,
			problems: actions.filter(isProblem),
			handoff: false,
		};
	}

	private stepMessage(
		record: ConversationRecord | undefined,
		message: MessageReceived,
		profile: ClientProfile,
	): {
		record: ConversationRecord;
		outcome: Pick<HandleResult, 'status' | 'handoff' | 'restart'>;
	} {
		const now = this.clock.now();
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
		let restart: HandleResult['restart'];
		let status: HandleResult['status'] = 'handled';
		let handedOffBefore = false;
		if (current?.snapshot) {
			compiled = current.compiled;
			handedOffBefore = current.snapshot.context.handedOff;
			step = compiled.step(current.snapshot, { type: 'MESSAGE', message: fields });
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

	// ---- timers ----

	private async fireTimer(key: string, now: number): Promise<TimerResult | undefined> {
		for (let attempt = 1; ; attempt++) {
			const loaded = await this.read(key);
			const record = loaded.record;
			const timer = record?.timer;
			if (!record || !timer) {
				await this.clearDue(key);
				return undefined;
			}
			if (timer.dueAt > now) {
				// The index ran ahead of the record (a concurrent writer): put it right.
				await this.store.setDue(this.ns.conversations, key, timer.dueAt);
				return undefined;
			}
			const current = this.current(record);
			let next: ConversationRecord;
			if (!current?.snapshot || current.snapshot.value !== timer.state) {
				// The state is gone from the scenario: the timer is dropped, the next message decides.
				next = { ...record, timer: null, updatedAt: now };
			} else {
				const step = current.compiled.step(current.snapshot, { type: 'TIMER' });
				const rearm = current.compiled.document.states[timer.state]?.after?.target !== undefined;
				next = this.commitStep(record, current.compiled, step, {
					cause: `timer@${timer.dueAt}`,
					now,
					// A timer that stays in its state fires once; one that moves arms the next state's.
					timer: rearm ? 'arm' : 'clear',
				});
			}
			const saved = await this.save(key, next, loaded, attempt);
			if (!saved) continue;
			const { actions, record: latest } = await this.outbox.drain(key, saved);
			return {
				conversation: view(latest),
				actions,
				problems: actions.filter(isProblem),
			};
		}
	}

	// ---- stepping ----

	/**
	 * The conversation's machine and snapshot under the scenarios loaded now. The rule when a
	 * scenario changed under a live conversation: continue if its current state still exists
	 * (variables it no longer declares are dropped, a capture's tries start over), else start over.
	 */
	private current(
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
	private commitStep(
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

	/** A live conversation keeps its profile; a new one reads it when a scenario needs it. */
	private async profileFor(
		record: ConversationRecord | undefined,
		clientId: string,
	): Promise<ClientProfile> {
		const known = record?.snapshot.context.client;
		if (known && !record.ended) return known;
		if (!this.readsClient || !this.api.getClient) return known ?? { id: clientId, tags: [] };
		const found = await this.api.getClient(clientId);
		return {
			id: found.id,
			first_name: found.first_name ?? null,
			last_name: found.last_name ?? null,
			email: found.email ?? null,
			phone: found.phone ?? null,
			tags: [...(found.tags ?? [])],
			custom_fields: found.custom_fields ?? null,
		};
	}

	// ---- storage ----

	private async read(key: string): Promise<Loaded> {
		const found = await this.store.read(this.ns.conversations, key);
		return found
			? { record: decodeRecord(found.value), version: found.version }
			: { record: undefined, version: 0 };
	}

	/** One compare-and-set; null when another writer got there first (the caller reloads). */
	private async save(
		key: string,
		record: ConversationRecord,
		expected: Loaded,
		attempt: number,
	): Promise<Saved | undefined> {
		const version = await this.store.write(
			this.ns.conversations,
			key,
			encodeRecord(record),
			expected.version,
		);
		if (version === null) {
			if (attempt >= CAS_ATTEMPTS)
				throw new Error(
					`Conversation ${key} kept changing under ${CAS_ATTEMPTS} attempts to save it`,
				);
			return undefined;
		}
		// The due index follows the record (after it, so a crash leaves at worst a stale mark).
		if (record.timer) await this.store.setDue(this.ns.conversations, key, record.timer.dueAt);
		else if (expected.record?.timer) await this.clearDue(key);
		return { record, version };
	}

	/**
	 * Clears, then looks again: a timer armed meanwhile by another process gets its mark back. A
	 * stale mark is harmless: firing checks the record first.
	 */
	private async clearDue(key: string): Promise<void> {
		await this.store.setDue(this.ns.conversations, key, null);
		const { record } = await this.read(key);
		if (record?.timer) await this.store.setDue(this.ns.conversations, key, record.timer.dueAt);
	}

	// ---- the outbox ----
}

function checkEvent(event: MessageReceived): MessageReceived {
	for (const field of ['message_id', 'client_id', 'bot_id'] as const) {
		if (typeof event?.[field] !== 'string' || event[field] === '')
			throw new TypeError(`A message.received event needs a non-empty ${field}`);
	}
	return { ...event, text: typeof event.text === 'string' ? event.text : '' };
}

export type { ScenarioApi };
