import { initialTransition, transition } from 'xstate';

import { firstAnswerTest } from './first-message';
import { buildMachine, type ScenarioMachine, type ScenarioSnapshot } from './build';
import type {
	ConversationContext,
	Effect,
	MachineInput,
	ScenarioEvent,
	StepNote,
	WorkflowEffect,
} from './setup';
import type { TagChange } from '../../tags';
import { MAX_TEXT, type ScenarioDocument } from '../format/schema';
import { parseTemplate, type MessageFields } from '../format/templates';
import { parseScenario } from '../format/validate';
import { declaredVariables, readsOrders } from '../format/document-facts';
import { walkScenario } from '../format/walk';

/**
 * Compiles a scenario into an xstate v5 machine (build.ts) and the few facts the engine needs
 * about it: its states, its timers, whether it reads the client.
 */

/** The stored form of a snapshot: the state and the context, JSON. */
export interface PersistedSnapshot {
	value: string;
	context: ConversationContext;
}

export interface Step {
	snapshot: ScenarioSnapshot;
	effects: Effect[];
	/** What the step did besides its effects (counted by the analytics). */
	notes: StepNote[];
	/** The states it entered, in order (the analytics count each, and each edge between). */
	visits: string[];
}

export interface CompiledScenario {
	readonly id: string;
	readonly version: number;
	readonly document: ScenarioDocument;
	readonly machine: ScenarioMachine;
	readonly stateNames: ReadonlySet<string>;
	/** Whether templates or guards read the client's profile or tags (the engine then fetches it). */
	readonly readsClient: boolean;
	/** Whether a "findOrder" action looks orders up (the full record is then read every step). */
	readonly readsOrders: boolean;
	/** Minutes of silence before a state's timer fires. */
	timerMinutes(state: string): number | undefined;
	initial(input: MachineInput): Step;
	/**
	 * A conversation a client's message starts: the greeting, then (unless the scenario says
	 * "firstMessage": "greet") that message applied where the greeting left it, when it answers
	 * there (first-message.ts says when it does).
	 */
	start(input: MachineInput & { message: MessageFields }): Step;
	step(snapshot: ScenarioSnapshot, event: ScenarioEvent): Step;
	persist(snapshot: ScenarioSnapshot): PersistedSnapshot;
	restore(persisted: PersistedSnapshot): ScenarioSnapshot;
}

/** Validates (every problem at once) and compiles. */
export function compileScenario(input: unknown): CompiledScenario {
	const document = parseScenario(input);
	const machine = buildMachine(document);
	const stateNames = new Set(Object.keys(document.states));
	const answers = firstAnswerTest(document);
	return {
		id: document.id,
		version: document.version,
		document,
		machine,
		stateNames,
		readsClient: readsClient(document) || readsOrders(document),
		readsOrders: readsOrders(document),
		timerMinutes: (state) => document.states[state]?.after?.minutes,
		initial: (machineInput) => collect(initialTransition(machine, machineInput)),
		start: (machineInput) => {
			const greeted = collect(initialTransition(machine, machineInput));
			const { message, client } = machineInput;
			if (
				document.firstMessage === 'greet' ||
				greeted.snapshot.status !== 'active' ||
				!answers(String(greeted.snapshot.value), message.text)
			)
				return greeted;
			const answered = collect(
				transition(machine, greeted.snapshot, { type: 'MESSAGE', message, client }),
			);
			// A fallback or a retry means the message did not answer after all; a keyword did.
			if (answered.notes.some((note) => note !== 'keyword')) return greeted;
			return {
				snapshot: answered.snapshot,
				effects: [...greeted.effects, ...answered.effects],
				notes: [...greeted.notes, ...answered.notes],
				// Both counted: the client saw the greeting, then went on from it.
				visits: [...greeted.visits, ...answered.visits],
			};
		},
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
	const notes: StepNote[] = [];
	const visits: string[] = [];
	for (const action of actions) {
		if (action.type === 'visit') visits.push((action.params as { state: string }).state);
		else if (action.type === 'note') notes.push((action.params as { note: StepNote }).note);
		else if (action.type === 'reply') {
			const text = (action.params as { text: string }).text.trim();
			// A template that rendered to nothing sends nothing; an overlong one is cut to fit (A11).
			if (text) effects.push({ kind: 'reply', text: text.slice(0, MAX_TEXT) });
		} else if (action.type === 'callWorkflow') {
			effects.push({ kind: 'workflow', ...(action.params as Omit<WorkflowEffect, 'kind'>) });
		} else if (action.type === 'updateTags') {
			const { add, remove } = action.params as TagChange;
			effects.push({ kind: 'tags', add: [...add], remove: [...remove] });
		}
	}
	return { snapshot, effects, notes, visits };
}

/** Whether anything reads the client's profile: a client.* template other than the id, or a tag. */
function readsClient(doc: ScenarioDocument): boolean {
	const declared = declaredVariables(doc);
	let reads = false;
	walkScenario(doc, {
		condition: (c) => {
			if ('tag' in c || 'notTag' in c) reads = true;
		},
		template: (source) => {
			if (reads) return;
			reads = parseTemplate(source, declared).template.parts.some(
				(part) => typeof part !== 'string' && part.root === 'client' && part.path[0] !== 'id',
			);
		},
	});
	return reads;
}
