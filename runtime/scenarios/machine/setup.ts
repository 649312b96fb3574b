import { and, assign, setup } from 'xstate';

import { changeTags, type TagChange } from '../../tags';

import {
	acceptAnswer,
	conditionHolds,
	findOrder,
	matchesText,
	type PreparedCheck,
	type PreparedMatcher,
} from '../format/matchers';
import { chooseOption, type PreparedMenu } from '../format/menu';
import { assignVariant, type SplitDef } from '../format/split';
import { MAX_TEXT, type ActionDef, type CallOutcome, type Condition } from '../format/schema';
import {
	showValue,
	walkPath,
	type ClientProfile,
	type MessageFields,
	type OrderRecord,
	type Template,
} from '../format/templates';

/**
 * The machine's vocabulary: its context, events and effects, and `setup()` with the named actions
 * and guards every scenario's machine shares (build.ts builds a scenario's states from them).
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
	/** The order a "findOrder" action found (missing in conversations saved before orders). */
	order?: OrderRecord | null;
	/** Each split test's variant for this client, and whether it reached the test's goal. */
	splits?: Record<string, SplitMark>;
}

interface SplitMark {
	variant: string;
	goal?: true;
}

export type ScenarioEvent =
	| {
			type: 'MESSAGE';
			message: MessageFields;
			/** The client's record read for this step, when the scenario looks orders up. */
			client?: ClientProfile;
	  }
	| { type: 'TIMER' }
	| { type: 'RELEASE' }
	/** A workflow call's outcome, fed back once the engine has it. */
	| ({ type: 'RESULT' } & CallResult);

/** What became of a workflow call: fed back to the machine, and kept in its outbox entry. */
export interface CallResult {
	outcome: CallOutcome;
	data?: unknown;
	error?: string;
}

export interface MachineInput {
	/** Enter here instead of the start state (a jump from another scenario). */
	entry?: string;
	client: ClientProfile;
	vars?: Record<string, string>;
	/** The message that started the conversation, for {{message.text}} in entry messages. */
	message?: MessageFields;
	/** The client's split variants from its conversation before: kept across a restart. */
	splits?: Record<string, SplitMark>;
}

/** What the engine must do after the machine has stepped. */
export type Effect =
	| { kind: 'reply'; text: string }
	| { kind: 'tags'; add: string[]; remove: string[] }
	| {
			kind: 'workflow';
			workflow: string;
			inputs: Record<string, string>;
			timeoutMs: number;
			state: string;
	  };

export type WorkflowEffect = Extract<Effect, { kind: 'workflow' }>;

/**
 * What a step did that its effects do not show: the fallback answered, a capture retried or gave
 * up, a keyword moved the conversation (its edge is not the state's own arrow).
 */
export type StepNote = 'fallback' | 'retry' | 'giveUp' | 'keyword';
type CallParams = Omit<WorkflowEffect, 'kind'>;
type SplitParams = Pick<SplitDef, 'variants' | 'winner'> & { test: string };
/** The split tests whose goal was reached; on entering a state, its tries reset too. */
type GoalParams = { tests: readonly string[]; resetTries?: boolean };

/** Reserved states: the conversation ended, or continues in another scenario. */
export const END_STATE = '__end';
export const JUMP_STATE = '__jump';
export const ENTRY_STATE = '__entry';
/** How long a call waits for its workflow when the scenario does not say. */
export const DEFAULT_CALL_SECONDS = 30;

/** A named action that only declares its parameters: xstate hands it back, the engine acts. */
function effect<Params>(): (args: unknown, params: Params) => void {
	return () => undefined;
}

export const machineSetup = setup({
	types: {} as {
		context: ConversationContext;
		events: ScenarioEvent;
		input: MachineInput | undefined;
	},
	actions: {
		// Effects: never run inside xstate; `transition()` returns them and the engine performs them.
		reply: effect<{ text: string }>(),
		updateTags: effect<TagChange>(),
		callWorkflow: effect<CallParams>(),
		// Marks what a step did, for the analytics counters: nothing runs.
		note: effect<{ note: StepNote }>(),
		// Every state entered, in order: the path a step took, transient states included.
		visit: effect<{ state: string }>(),
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
		findOrder: assign(({ context, event }, params: { wanted: string }) => ({
			order: findOrder(ordersOf(context, event), params.wanted),
		})),
		keepVariant: assign(({ context }, params: { test: string; variant: string }) => ({
			splits: { ...context.splits, [params.test]: { variant: params.variant } },
		})),
		// One assign for every test whose goal this is, and the tries of a state entered (an
		// assign copies the snapshot: a goal state would otherwise pay for two).
		reachGoal: assign(({ context }, params: GoalParams) => {
			const tries = params.resetTries ? { tries: 0 } : {};
			let splits = context.splits;
			for (const test of params.tests) {
				const mark = splits?.[test];
				if (mark && !mark.goal) splits = { ...splits, [test]: { ...mark, goal: true as const } };
			}
			return splits === context.splits ? tries : { ...tries, splits };
		}),
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
			conditionHolds(params.condition, context.vars, context.client.tags, context.order ?? null),
		menuChoice: ({ event }, params: { menu: PreparedMenu; index: number }) =>
			event.type === 'MESSAGE' && chooseOption(params.menu, event.message.text) === params.index,
		triesLeft: ({ context }, params: { retries: number }) => context.tries < params.retries,
		entryIs: ({ event }, params: { state: string }) => entryOf(event) === params.state,
		variantIs: ({ context }, params: { test: string; variant: string }) =>
			context.splits?.[params.test]?.variant === params.variant,
		// No variant kept that is still one of the test's: the winner's, else the hash's.
		variantDrawn: ({ context }, params: SplitParams & { variant: string }) => {
			const known = context.splits?.[params.test]?.variant;
			if (known !== undefined && params.variants.some((v) => v.name === known)) return false;
			return assignVariant(params, params.test, context.client.id) === params.variant;
		},
		outcomeIs: ({ event }, params: { outcome: CallOutcome }) =>
			event.type === 'RESULT' && event.outcome === params.outcome,
	},
});

type MachineConfig = Parameters<typeof machineSetup.createMachine>[0];
export type StateConfig = NonNullable<MachineConfig['states']>[string];
export type ActionConfig = Extract<NonNullable<StateConfig['entry']>, readonly unknown[]>[number];
export type OnConfig = NonNullable<StateConfig['on']>;
export type TransitionOf<E extends 'MESSAGE' | 'TIMER' | 'RESULT'> = Extract<
	Extract<NonNullable<OnConfig[E]>, readonly unknown[]>[number],
	{ guard?: unknown }
>;
export type TransitionConfig = TransitionOf<'MESSAGE'>;
export type GuardConfig = NonNullable<TransitionConfig['guard']>;
export type AlwaysConfig = Extract<
	Extract<NonNullable<StateConfig['always']>, readonly unknown[]>[number],
	{ guard?: unknown }
>;

/** The orders a step can see: the record read for it, or the one the conversation started with. */
function ordersOf(context: ConversationContext, event: unknown): OrderRecord[] {
	const e = event as { client?: ClientProfile; input?: MachineInput };
	return e.client?.orders ?? e.input?.client.orders ?? context.client.orders ?? [];
}

export function withoutOrders(client: ClientProfile): ClientProfile {
	if (client.orders === undefined) return client;
	// Built without `delete`, which leaves an object that every save serializes more slowly.
	const { orders, ...rest } = client;
	void orders;
	return rest;
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

/** Where a step goes: its target, or the end / jump pseudo-states when an action leaves. */
export function destination(defs: ActionDef[] | undefined, target: string | undefined) {
	if (defs?.some((a) => 'end' in a)) return { target: END_STATE };
	if (defs?.some((a) => 'goto' in a)) return { target: JUMP_STATE };
	return target === undefined ? {} : { target, reenter: true };
}

/** What a template may read at this point of the conversation. */
export function scopeOf(context: ConversationContext, event: unknown) {
	return {
		client: context.client,
		vars: context.vars,
		message: messageOf(event),
		order: context.order ?? null,
	};
}

/** A branch's conditions, whatever the event that led into the state. */
export function allConditions(conditions: Condition[]): NonNullable<AlwaysConfig['guard']> {
	const guards = conditions.map((condition) => ({
		type: 'conditionHolds' as const,
		params: { condition },
	}));
	return guards.length === 1
		? guards[0]
		: and<ConversationContext, ScenarioEvent, typeof guards>(guards);
}

/** Sets the call's "store" variables from the fields of its result. */
export function storeResult(store: Record<string, string>): ActionConfig {
	return {
		type: 'setVars',
		params: ({ event }) => {
			const data = event.type === 'RESULT' ? event.data : undefined;
			const values = Object.entries(store).map(([name, field]) => {
				const value = field === '' ? data : walkPath(data, field.split('.'));
				return [name, showValue(value).slice(0, MAX_TEXT)];
			});
			return { values: Object.fromEntries(values) };
		},
	};
}

export function conditionGuard(condition: Condition): NamedGuard {
	return { type: 'conditionHolds', params: { condition } };
}

export type NamedGuard =
	| { type: 'textMatches'; params: { matcher: PreparedMatcher } }
	| { type: 'conditionHolds'; params: { condition: Condition } };

/** A transition's guards, combined with xstate's `and` when there are several. */
export function allOf(parts: NamedGuard[]): GuardConfig {
	return parts.length === 1
		? parts[0]
		: and<ConversationContext, Extract<ScenarioEvent, { type: 'MESSAGE' }>, NamedGuard[]>(parts);
}

/** What a part of the format built apart (menu.ts, call.ts) needs of the scenario's builder. */
export interface PartBuilder {
	template(source: string): Template;
	reply(source: string): ActionConfig;
	actions(defs: ActionDef[] | undefined): ActionConfig[];
}
