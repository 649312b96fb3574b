import type { SnapshotFrom } from 'xstate';

import { acceptAnswer, prepareCheck, prepareMatcher } from '../format/matchers';
import {
	allConditions,
	allOf,
	conditionGuard,
	destination,
	scopeOf,
	END_STATE,
	ENTRY_STATE,
	JUMP_STATE,
	machineSetup,
	withoutOrders,
	type ActionConfig,
	type AlwaysConfig,
	type OnConfig,
	type StateConfig,
	type TransitionConfig,
	type TransitionOf,
} from './setup';
import type {
	ActionDef,
	BranchDef,
	CaptureDef,
	ScenarioDocument,
	StateDef,
	TimerDef,
	TransitionDef,
} from '../format/schema';
import { parseTemplate, renderTemplate, type Template } from '../format/templates';
import { declaredVariables } from '../format/document-facts';
import { callState } from './call';
import { menuQuestion, menuTransitions } from './menu';
import { goalsOf, splitMoves, type Goals } from './split';
import { inlineSplits, type BuiltSplit } from './inline-splits';

/**
 * The xstate v5 machine of a scenario: each part of the format turned into states, transitions
 * and named actions (setup.ts). The machine only computes: stepped with the pure
 * `transition()`, it returns the actions it wants done, and the effects among them (replies, tag
 * updates, workflow calls) are handed to the engine, which performs them after saving.
 */

export type ScenarioMachine = ReturnType<typeof buildMachine>;
export type ScenarioSnapshot = SnapshotFrom<ScenarioMachine>;

/** Compiles a scenario document into its machine (the document is already validated). */
export function buildMachine(doc: ScenarioDocument) {
	const build = new MachineBuilder(doc);
	const states = {
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
		...Object.fromEntries(
			Object.entries(doc.states).map(([name, def]) => [name, build.state(name, def)]),
		),
		[END_STATE]: { type: 'final' as const, entry: [visit(END_STATE)] },
		[JUMP_STATE]: { type: 'final' as const },
	};
	inlineSplits(states, build.splits);
	return machineSetup.createMachine({
		id: doc.id,
		context: ({ input }) => ({
			vars: { ...(input?.vars ?? {}) },
			// The orders are read afresh for each step, never kept in the conversation.
			client: withoutOrders(input?.client ?? { id: '', tags: [] }),
			tries: 0,
			handedOff: false,
			jump: null,
			order: null,
			...(input?.splits ? { splits: { ...input.splits } } : {}),
		}),
		initial: ENTRY_STATE,
		states,
		on: { RELEASE: { actions: 'release' } },
	});
}

const SILENT: TransitionConfig = { guard: 'silenced' };

function visit(state: string): ActionConfig {
	return { type: 'visit', params: { state } };
}

/** Turns each part of the format into its xstate configuration. */
class MachineBuilder {
	private readonly declared: ReadonlySet<string>;
	private readonly keywords: TransitionConfig[];
	private readonly goals: Goals;
	/** The split states built, for inline-splits.ts. */
	readonly splits = new Map<string, BuiltSplit>();

	constructor(private readonly doc: ScenarioDocument) {
		this.declared = declaredVariables(doc);
		this.goals = goalsOf(doc);
		// A keyword's move is noted: it is not the arrow of the state it leaves (a capture's give-up).
		this.keywords = (doc.keywords ?? []).map((t) => {
			const move = this.transition(t);
			const note: ActionConfig = { type: 'note', params: { note: 'keyword' } };
			return { ...move, actions: [note, ...(move.actions as ActionConfig[])] };
		});
	}

	state(name: string, def: StateDef): StateConfig {
		const entry: ActionConfig[] = [
			visit(name),
			// A split waits for nothing: the state it sends the client to resets the tries.
			...this.goals.reached(name, !def.split),
			...(def.messages ?? []).map((m) => this.reply(m)),
			...this.actions(def.actions),
			...(def.menu ? [menuQuestion(def.menu, this)] : []),
		];
		if (def.end) return { entry, type: 'final' };
		if (def.split) {
			const split = { entry, always: splitMoves(name, def.split, this) };
			this.splits.set(name, split);
			return split;
		}
		if (def.call) return callState(name, def.call, entry, [SILENT, ...this.keywords], this);
		const message: TransitionConfig[] = [
			SILENT,
			...this.keywords,
			...(def.on ?? []).map((t) => this.transition(t)),
			...(def.capture ? this.capture(def.capture) : []),
			...(def.menu ? menuTransitions(def.menu, this) : []),
		];
		const fallback = def.fallback ?? this.doc.fallback;
		if (fallback !== undefined)
			message.push({
				actions: [{ type: 'note', params: { note: 'fallback' } }, this.reply(fallback)],
			});
		const on: OnConfig = { MESSAGE: message };
		if (def.after) on.TIMER = this.timer(def.after);
		return def.choose ? { entry, on, always: this.choose(def.choose) } : { entry, on };
	}

	template(source: string): Template {
		return parseTemplate(source, this.declared).template;
	}

	reply(source: string): ActionConfig {
		const compiled = this.template(source);
		return {
			type: 'reply',
			params: ({ context, event }) => ({ text: renderTemplate(compiled, scopeOf(context, event)) }),
		};
	}

	private action(def: ActionDef): ActionConfig[] {
		if ('reply' in def) return [this.reply(def.reply)];
		if ('addTags' in def || 'removeTags' in def) {
			const change = {
				add: 'addTags' in def ? def.addTags : [],
				remove: 'removeTags' in def ? def.removeTags : [],
			};
			return [
				{ type: 'updateTags', params: change },
				{ type: 'applyTags', params: change },
				...this.goals.tagged(change.add),
			];
		}
		if ('set' in def) return [this.setVars(def.set)];
		if ('handoff' in def) return [{ type: 'handOff' }];
		if ('goto' in def) return [{ type: 'prepareJump', params: { ...def.goto } }];
		if ('findOrder' in def) {
			const wanted = this.template(def.findOrder);
			return [
				{
					type: 'findOrder',
					params: ({ context, event }) => ({
						wanted: renderTemplate(wanted, scopeOf(context, event)),
					}),
				},
			];
		}
		return [];
	}

	private setVars(set: Record<string, string>): ActionConfig {
		const values = Object.entries(set).map(
			([name, source]) => [name, this.template(source)] as const,
		);
		return {
			type: 'setVars',
			params: ({ context, event }) => {
				const scope = scopeOf(context, event);
				return {
					values: Object.fromEntries(values.map(([n, t]) => [n, renderTemplate(t, scope)])),
				};
			},
		};
	}

	actions(defs: ActionDef[] | undefined): ActionConfig[] {
		return (defs ?? []).flatMap((def) => this.action(def));
	}

	private transition(t: TransitionDef): TransitionConfig {
		return {
			guard: allOf([
				{ type: 'textMatches', params: { matcher: prepareMatcher(t.match) } },
				...(t.when ?? []).map(conditionGuard),
			]),
			actions: this.actions(t.actions),
			...destination(t.actions, t.target),
		};
	}

	/** A valid answer is stored and goes on; an invalid one is retried, then given up on. */
	private capture(capture: CaptureDef): TransitionConfig[] {
		const check = prepareCheck(capture.check);
		const giveUp = capture.giveUp;
		return [
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
					...this.actions(capture.actions),
				],
				...destination(capture.actions, capture.target),
			},
			{
				guard: { type: 'triesLeft', params: { retries: capture.retries } },
				actions: [
					{ type: 'countTry' },
					{ type: 'note', params: { note: 'retry' } },
					this.reply(capture.retry),
				],
			},
			{
				actions: [
					{ type: 'note', params: { note: 'giveUp' } },
					...(giveUp.say === undefined ? [] : [this.reply(giveUp.say)]),
					...this.actions(giveUp.actions),
				],
				...destination(giveUp.actions, giveUp.target),
			},
		];
	}

	/** Decided on entry: the first branch whose conditions hold. */
	private choose(branches: BranchDef[]): AlwaysConfig[] {
		return branches.map((b) => ({
			...(b.when?.length ? { guard: allConditions(b.when) } : {}),
			actions: [...(b.say === undefined ? [] : [this.reply(b.say)]), ...this.actions(b.actions)],
			...destination(b.actions, b.target),
		}));
	}

	private timer(after: TimerDef): NonNullable<OnConfig['TIMER']> {
		const sends =
			after.send === undefined ? [] : Array.isArray(after.send) ? after.send : [after.send];
		const silentTimer: TransitionOf<'TIMER'> = { guard: 'silenced' };
		return [
			silentTimer,
			{
				actions: [...sends.map((s) => this.reply(s)), ...this.actions(after.actions)],
				...destination(after.actions, after.target),
			},
		];
	}
}
