import { and, assign, initialTransition, setup, transition, type SnapshotFrom } from 'xstate';

import {
	acceptAnswer,
	conditionHolds,
	matchesText,
	prepareCheck,
	prepareMatcher,
	type PreparedCheck,
	type PreparedMatcher,
} from './matchers';
import {
	MAX_TEXT,
	type ActionDef,
	type Condition,
	type ScenarioDocument,
	type TransitionDef,
} from './schema';
import {
	parseTemplate,
	renderTemplate,
	type ClientProfile,
	type MessageFields,
	type Template,
} from './templates';
import { parseScenario } from './validate';

/**
 * Compiles a scenario into an xstate v5 machine with named actions and guards. The machine only
 * computes: stepped with the pure `transition()`, it returns the actions it wants done, and the
 * effects among them (replies, tag updates) are handed to the engine, which performs them after
 * saving. Assign actions change the conversation's context (variables, tags, handoff).
 */

export interface ConversationContext {
	vars: Record<string, string>;
	client: ClientProfile;
	/** Invalid answers to the current state's capture. */
	tries: number;
	/** A human has the conversation: the bot stays silent until released. */
	handedOff: boolean;
	/** Set when a transition jumps to another scenario (the machine then stops). */
	jump: { scenario: string; state?: string } | null;
}

export type ScenarioEvent =
	| { type: 'MESSAGE'; message: MessageFields }
	| { type: 'TIMER' }
	| { type: 'RELEASE' };

export interface MachineInput {
	/** Enter here instead of the start state (a jump from another scenario). */
	entry?: string;
	client: ClientProfile;
	vars?: Record<string, string>;
	/** The message that started the conversation, for {{message.text}} in entry messages. */
	message?: MessageFields;
}

/** What the engine must do after the machine has stepped. */
export type Effect =
	| { kind: 'reply'; text: string }
	| { kind: 'tags'; add: string[]; remove: string[] };

/** Reserved states: the conversation ended, or continues in another scenario. */
export const END_STATE = '__end';
export const JUMP_STATE = '__jump';
const ENTRY_STATE = '__entry';

type TagChange = { add: string[]; remove: string[] };

/** A named action that only declares its parameters: xstate hands it back, the engine acts. */
function effect<Params>(): (args: unknown, params: Params) => void {
	return () => undefined;
}

const machineSetup = setup({
	types: {} as {
		context: ConversationContext;
		events: ScenarioEvent;
		input: MachineInput | undefined;
	},
	actions: {
		// Effects: never run inside xstate; `transition()` returns them and the engine performs them.
		reply: effect<{ text: string }>(),
		updateTags: effect<TagChange>(),
		// Context changes.
		applyTags: assign(({ context }, change: TagChange) => ({
			client: { ...context.client, tags: changeTags(context.client.tags, change) },
		})),
		setVars: assign(({ context }, params: { values: Record<string, string> }) => ({
			vars: { ...context.vars, ...params.values },
		})),
		resetTries: assign({ tries: 0 }),
		countTry: assign(({ context }) => ({ tries: context.tries + 1 })),
		handOff: assign({ handedOff: true }),
		release: assign({ handedOff: false }),
		prepareJump: assign((_, params: { scenario: string; state?: string }) => ({
			jump: params.state === undefined ? { scenario: params.scenario } : { ...params },
		})),
	},
	guards: {
		silenced: ({ context }) => context.handedOff,
		textMatches: ({ event }, params: { matcher: PreparedMatcher }) =>
			event.type === 'MESSAGE' && matchesText(params.matcher, event.message.text),
		answerValid: ({ event }, params: { check: PreparedCheck }) =>
			event.type === 'MESSAGE' && acceptAnswer(params.check, event.message.text) !== undefined,
		conditionHolds: ({ context }, params: { condition: Condition }) =>
			conditionHolds(params.condition, context.vars, context.client.tags),
		triesLeft: ({ context }, params: { retries: number }) => context.tries < params.retries,
		entryIs: ({ event }, params: { state: string }) => entryOf(event) === params.state,
	},
});

export type ScenarioMachine = ReturnType<typeof buildMachine>;
export type ScenarioSnapshot = SnapshotFrom<ScenarioMachine>;
type MachineConfig = Parameters<typeof machineSetup.createMachine>[0];
type StateConfig = NonNullable<MachineConfig['states']>[string];
type ActionConfig = Extract<NonNullable<StateConfig['entry']>, readonly unknown[]>[number];
type OnConfig = NonNullable<StateConfig['on']>;
type TransitionOf<E extends 'MESSAGE' | 'TIMER'> = Extract<
	Extract<NonNullable<OnConfig[E]>, readonly unknown[]>[number],
	{ guard?: unknown }
>;
type TransitionConfig = TransitionOf<'MESSAGE'>;
type GuardConfig = NonNullable<TransitionConfig['guard']>;

/** The stored form of a snapshot: the state and the context, JSON. */
export interface PersistedSnapshot {
	value: string;
	context: ConversationContext;
}

export interface Step {
	snapshot: ScenarioSnapshot;
	effects: Effect[];
}

export interface CompiledScenario {
	readonly id: string;
	readonly version: number;
	readonly document: ScenarioDocument;
	readonly machine: ScenarioMachine;
	readonly stateNames: ReadonlySet<string>;
	/** Whether templates or guards read the client's profile or tags (the engine then fetches it). */
	readonly readsClient: boolean;
	/** Minutes of silence before a state's timer fires. */
	timerMinutes(state: string): number | undefined;
	initial(input: MachineInput): Step;
	step(snapshot: ScenarioSnapshot, event: ScenarioEvent): Step;
	persist(snapshot: ScenarioSnapshot): PersistedSnapshot;
	restore(persisted: PersistedSnapshot): ScenarioSnapshot;
}

/** Validates (every problem at once) and compiles. */
export function compileScenario(input: unknown): CompiledScenario {
	const document = parseScenario(input);
	const machine = buildMachine(document);
	const stateNames = new Set(Object.keys(document.states));
	return {
		id: document.id,
		version: document.version,
		document,
		machine,
		stateNames,
		readsClient: readsClient(document),
		timerMinutes: (state) => document.states[state]?.after?.minutes,
		initial: (machineInput) => collect(initialTransition(machine, machineInput)),
		step: (snapshot, event) => collect(transition(machine, snapshot, event)),
		persist: (snapshot) => {
			const persisted = machine.getPersistedSnapshot(snapshot) as unknown as {
				value: unknown;
				context: ConversationContext;
			};
			return { value: String(persisted.value), context: persisted.context };
		},
		restore: (persisted) =>
			machine.resolveState({ value: persisted.value, context: persisted.context }),
	};
}

function collect([snapshot, actions]: [
	ScenarioSnapshot,
	Array<{ type: string; params?: unknown }>,
]): Step {
	const effects: Effect[] = [];
	for (const action of actions) {
		if (action.type === 'reply') {
			const text = (action.params as { text: string }).text.trim();
			// A template that rendered to nothing sends nothing; an overlong one is cut to fit (A11).
			if (text) effects.push({ kind: 'reply', text: text.slice(0, MAX_TEXT) });
		} else if (action.type === 'updateTags') {
			const { add, remove } = action.params as TagChange;
			effects.push({ kind: 'tags', add: [...add], remove: [...remove] });
		}
	}
	return { snapshot, effects };
}

function buildMachine(doc: ScenarioDocument) {
	const declared = declaredVariables(doc);
	const template = (source: string): Template => parseTemplate(source, declared).template;

	const reply = (source: string): ActionConfig => {
		const compiled = template(source);
		return {
			type: 'reply',
			params: ({ context, event }) => ({
				text: renderTemplate(compiled, {
					client: context.client,
					vars: context.vars,
					message: messageOf(event),
				}),
			}),
		};
	};

	const action = (def: ActionDef): ActionConfig[] => {
		if ('reply' in def) return [reply(def.reply)];
		if ('addTags' in def || 'removeTags' in def) {
			const change = {
				add: 'addTags' in def ? def.addTags : [],
				remove: 'removeTags' in def ? def.removeTags : [],
			};
			return [
				{ type: 'updateTags', params: change },
				{ type: 'applyTags', params: change },
			];
		}
		if ('set' in def) {
			const values = Object.entries(def.set).map(
				([name, source]) => [name, template(source)] as const,
			);
			return [
				{
					type: 'setVars',
					params: ({ context, event }) => {
						const scope = { client: context.client, vars: context.vars, message: messageOf(event) };
						return {
							values: Object.fromEntries(values.map(([n, t]) => [n, renderTemplate(t, scope)])),
						};
					},
				},
			];
		}
		if ('handoff' in def) return [{ type: 'handOff' }];
		if ('goto' in def) return [{ type: 'prepareJump', params: { ...def.goto } }];
		return [];
	};
	const actions = (defs: ActionDef[] | undefined) => (defs ?? []).flatMap(action);

	/** Where a step goes: its target, or the end / jump pseudo-states when an action leaves. */
	const destination = (defs: ActionDef[] | undefined, target: string | undefined) => {
		if (defs?.some((a) => 'end' in a)) return { target: END_STATE };
		if (defs?.some((a) => 'goto' in a)) return { target: JUMP_STATE };
		return target === undefined ? {} : { target, reenter: true };
	};

	const compileTransition = (t: TransitionDef): TransitionConfig => ({
		guard: allOf([
			{ type: 'textMatches', params: { matcher: prepareMatcher(t.match) } },
			...(t.when ?? []).map(
				(condition): NamedGuard => ({
					type: 'conditionHolds',
					params: { condition },
				}),
			),
		]),
		actions: actions(t.actions),
		...destination(t.actions, t.target),
	});

	const silent: TransitionConfig = { guard: 'silenced' };
	const keywords = (doc.keywords ?? []).map(compileTransition);
	const states: Record<string, StateConfig> = {};

	for (const [name, def] of Object.entries(doc.states)) {
		const entry: ActionConfig[] = [
			{ type: 'resetTries' },
			...(def.messages ?? []).map(reply),
			...actions(def.actions),
		];
		if (def.end) {
			states[name] = { entry, type: 'final' };
			continue;
		}
		const message: TransitionConfig[] = [
			silent,
			...keywords,
			...(def.on ?? []).map(compileTransition),
		];
		const capture = def.capture;
		if (capture) {
			const check = prepareCheck(capture.check);
			message.push(
				{
					guard: { type: 'answerValid', params: { check } },
					actions: [
						{
							type: 'setVars',
							params: ({ event }) => ({
								values: {
									[capture.into]:
										event.type === 'MESSAGE' ? (acceptAnswer(check, event.message.text) ?? '') : '',
								},
							}),
						},
						...actions(capture.actions),
					],
					...destination(capture.actions, capture.target),
				},
				{
					guard: { type: 'triesLeft', params: { retries: capture.retries } },
					actions: [{ type: 'countTry' }, reply(capture.retry)],
				},
				{
					actions: [
						...(capture.giveUp.say === undefined ? [] : [reply(capture.giveUp.say)]),
						...actions(capture.giveUp.actions),
					],
					...destination(capture.giveUp.actions, capture.giveUp.target),
				},
			);
		}
		const fallback = def.fallback ?? doc.fallback;
		if (fallback !== undefined) message.push({ actions: [reply(fallback)] });

		const on: OnConfig = { MESSAGE: message };
		const after = def.after;
		if (after) {
			const sends =
				after.send === undefined ? [] : Array.isArray(after.send) ? after.send : [after.send];
			const silentTimer: TransitionOf<'TIMER'> = { guard: 'silenced' };
			on.TIMER = [
				silentTimer,
				{
					actions: [...sends.map(reply), ...actions(after.actions)],
					...destination(after.actions, after.target),
				},
			];
		}
		states[name] = { entry, on };
	}

	return machineSetup.createMachine({
		id: doc.id,
		context: ({ input }) => ({
			vars: { ...(input?.vars ?? {}) },
			client: input?.client ?? { id: '', tags: [] },
			tries: 0,
			handedOff: false,
			jump: null,
		}),
		initial: ENTRY_STATE,
		states: {
			// Routes a conversation that arrives by a jump to its state; otherwise to the start.
			[ENTRY_STATE]: {
				always: [
					...Object.keys(doc.states).map((state) => ({
						guard: { type: 'entryIs' as const, params: { state } },
						target: state,
					})),
					{ target: doc.start },
				],
			},
			...states,
			[END_STATE]: { type: 'final' },
			[JUMP_STATE]: { type: 'final' },
		},
		on: { RELEASE: { actions: 'release' } },
	});
}

type NamedGuard =
	| { type: 'textMatches'; params: { matcher: PreparedMatcher } }
	| { type: 'conditionHolds'; params: { condition: Condition } };

/** A transition's guards, combined with xstate's `and` when there are several. */
function allOf(parts: NamedGuard[]): GuardConfig {
	return parts.length === 1
		? parts[0]
		: and<ConversationContext, Extract<ScenarioEvent, { type: 'MESSAGE' }>, NamedGuard[]>(parts);
}

/** The client message an action may quote: the event's, or the one that started the machine. */
function messageOf(event: unknown): MessageFields | undefined {
	const e = event as { type?: string; message?: MessageFields; input?: MachineInput };
	if (e.type === 'MESSAGE') return e.message;
	return e.input?.message;
}

function entryOf(event: unknown): string | undefined {
	return (event as { input?: MachineInput }).input?.entry;
}

export function changeTags(tags: readonly string[], change: TagChange): string[] {
	const removed = new Set(change.remove.map((t) => t.trim()));
	const next = tags.filter((t) => !removed.has(t));
	for (const tag of change.add.map((t) => t.trim())) if (!next.includes(tag)) next.push(tag);
	return next;
}

/** Variables a scenario may use: its list, and every capture's variable. */
export function declaredVariables(doc: ScenarioDocument): Set<string> {
	return new Set([
		...(doc.variables ?? []),
		...Object.values(doc.states).flatMap((s) => (s.capture ? [s.capture.into] : [])),
	]);
}

/** Whether anything reads the client's profile: a client.* template other than the id, or a tag. */
function readsClient(doc: ScenarioDocument): boolean {
	const templates: string[] = doc.fallback === undefined ? [] : [doc.fallback];
	const conditions: Condition[] = [];
	const fromActions = (actions: ActionDef[] | undefined) => {
		for (const a of actions ?? []) {
			if ('reply' in a) templates.push(a.reply);
			if ('set' in a) templates.push(...Object.values(a.set));
		}
	};
	const fromTransition = (t: TransitionDef) => {
		conditions.push(...(t.when ?? []));
		fromActions(t.actions);
	};
	doc.keywords?.forEach(fromTransition);
	for (const state of Object.values(doc.states)) {
		templates.push(
			...(state.messages ?? []),
			...(state.fallback === undefined ? [] : [state.fallback]),
		);
		fromActions(state.actions);
		state.on?.forEach(fromTransition);
		if (state.capture) {
			templates.push(
				state.capture.retry,
				...(state.capture.giveUp.say === undefined ? [] : [state.capture.giveUp.say]),
			);
			fromActions(state.capture.actions);
			fromActions(state.capture.giveUp.actions);
		}
		if (state.after) {
			const send = state.after.send ?? [];
			templates.push(...(Array.isArray(send) ? send : [send]));
			fromActions(state.after.actions);
		}
	}
	const declared = declaredVariables(doc);
	return (
		conditions.some((c) => 'tag' in c || 'notTag' in c) ||
		templates.some((source) =>
			parseTemplate(source, declared).template.parts.some(
				(part) => typeof part !== 'string' && part.root === 'client' && part.path[0] !== 'id',
			),
		)
	);
}
