import * as z from 'zod/v4';

import {
	actions,
	actionSchema,
	caseSensitive,
	conditionSchema,
	matcherSchema,
	MAX_RETRIES,
	MAX_TIMER_MINUTES,
	oneOrMore,
	plain,
	range,
	scenarioId,
	stateName,
	text,
	varName,
} from './schema-parts';
import { menuSchema } from './menu';
import { splitSchema } from './split';

export * from './schema-parts';
export type { MenuDef, MenuOption } from './menu';
export type { SplitDef, SplitVariant } from './split';

/**
 * The scenario format: states, captures, timers, branches and workflow calls, and the document
 * that holds them (the building blocks are in schema-parts.ts). `validate.ts` adds the rules that
 * span fields; `scenario.schema.json` is generated from it for editors.
 */

const transitionSchema = z
	.strictObject({
		match: matcherSchema,
		when: z.array(conditionSchema, 'must be a list of conditions').optional(),
		actions: actions.optional(),
		target: stateName.optional().describe('The state to go to (re-entered if it is this one)'),
	})
	.meta({ id: 'Transition' });

const checkSchema = z
	.union(
		[
			z.enum(['email', 'phone', 'number', 'text']),
			z.strictObject({ regex: z.string('must be a regular expression').min(1), caseSensitive }),
			z.strictObject({
				oneOf: z.array(plain, 'must be a list of texts').min(1, 'must list at least one option'),
			}),
			z.strictObject({ number: range }),
		],
		{
			error:
				'must be "email", "phone", "number", "text", {"regex": …}, {"oneOf": […]} or {"number": {…}}',
		},
	)
	.describe('What a valid answer looks like');

const captureSchema = z
	.strictObject({
		into: varName.describe('The variable that receives the answer (declares it)'),
		check: checkSchema,
		retry: text.describe('Sent after an invalid answer'),
		retries: z
			.number('must be a number')
			.int('must be a whole number')
			.min(1, 'must be at least 1')
			.max(MAX_RETRIES, `must be at most ${MAX_RETRIES}`)
			.describe('How many times the retry message is sent; the next invalid answer gives up'),
		giveUp: z
			.strictObject({
				target: stateName.optional(),
				say: text.optional(),
				actions: actions.optional(),
			})
			.describe('After the last retry: say this and go to target (or end / goto)'),
		target: stateName.optional().describe('Where a valid answer leads (default: stay)'),
		actions: actions.optional().describe('Run after a valid answer'),
	})
	.describe('Capture the next message into a variable');

const timerSchema = z
	.strictObject({
		minutes: z
			.number('must be a number')
			.positive('must be more than 0')
			.max(MAX_TIMER_MINUTES, `must be at most ${MAX_TIMER_MINUTES} (30 days)`),
		send: oneOrMore(text).optional(),
		actions: actions.optional(),
		target: stateName.optional(),
	})
	.describe('After this many minutes of silence in the state, send and/or go on');

const branchSchema = z
	.strictObject({
		when: z.array(conditionSchema, 'must be a list of conditions').optional(),
		say: text.optional(),
		actions: actions.optional(),
		target: stateName.optional(),
	})
	.meta({ id: 'Branch', description: 'Taken when its conditions hold (none: always)' });

/** Where a workflow call's outcome leads. */
const outcomeSchema = z
	.strictObject({
		say: text.optional(),
		actions: actions.optional(),
		target: stateName.optional(),
	})
	.describe('Say this, run the actions and go to target (or end / goto)');

const MAX_CALL_SECONDS = 300;
const WORKFLOW_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const workflowName = z
	.string('must be a workflow name')
	.regex(WORKFLOW_NAME, 'must start with a letter and hold only letters, digits, "_" or "-"');
/** A field of a workflow's result: a dotted path ("order.status"); "" is the whole result. */
const resultPath = z
	.string('must be a field of the result')
	.regex(
		/^(?:[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*)?$/,
		'must be a field like "status" or "order.status"',
	);

const callSchema = z
	.strictObject({
		workflow: workflowName.describe('One of the scenario\'s "workflows"'),
		inputs: z
			.record(z.string('must be a name'), text, 'must map input names to texts')
			.optional()
			.describe("The workflow's input item: each value is a template"),
		timeoutSeconds: z
			.number('must be a number')
			.positive('must be more than 0')
			.max(MAX_CALL_SECONDS, `must be at most ${MAX_CALL_SECONDS}`)
			.optional()
			.describe('How long to wait for the result (default 30)'),
		store: z
			.record(varName, resultPath, 'must map variables to fields of the result')
			.optional()
			.describe(
				'Variables set from the result on success (declares them); "" stores the whole result as JSON',
			),
		success: outcomeSchema.describe('The workflow returned an item'),
		empty: outcomeSchema.optional().describe('The workflow returned no item (default: failure)'),
		failure: outcomeSchema.describe('The workflow failed, or the call was lost with its worker'),
		timeout: outcomeSchema
			.optional()
			.describe('No answer within the time limit (default: failure)'),
	})
	.meta({
		id: 'Call',
		description: 'Calls an n8n workflow on entry and waits for its result without a message',
	});

const stateSchema = z
	.strictObject({
		description: z.string('must be text').optional(),
		messages: z.array(text, 'must be a list of texts').optional().describe('Sent on entry'),
		actions: actions.optional().describe('Run on entry, after the messages'),
		on: z.array(transitionSchema, 'must be a list of transitions').optional(),
		capture: captureSchema.optional(),
		after: timerSchema.optional(),
		call: callSchema.optional(),
		menu: menuSchema.optional(),
		choose: z
			.array(branchSchema, 'must be a list of branches')
			.min(1, 'must list at least one branch')
			.optional()
			.describe(
				'Decided on entry, after the actions, without waiting for a message: the first branch whose conditions hold is taken; the last must have none',
			),
		split: splitSchema.optional(),
		fallback: text.optional().describe('Replaces the scenario fallback in this state'),
		end: z.boolean('must be true or false').optional().describe('The conversation ends on entry'),
	})
	.meta({ id: 'State' });

export const scenarioSchema = z
	.strictObject({
		$schema: z.string().optional(),
		id: scenarioId,
		version: z
			.number('must be a number')
			.int('must be a whole number')
			.min(1, 'must be at least 1')
			.describe('Raise it with every change; live conversations follow the rule in the README'),
		description: z.string('must be text').optional(),
		start: stateName,
		firstMessage: z
			.enum(['answer', 'greet'], 'must be "answer" or "greet"')
			.optional()
			.describe(
				'"answer" (default): a first message that answers the start state is handled after the greeting; "greet": it only gets the greeting',
			),
		variables: z
			.array(varName, 'must be a list of variable names')
			.optional()
			.describe('Variables used in templates and guards (capture.into declares one too)'),
		fallback: text.optional().describe('Sent when no transition matches'),
		keywords: z
			.array(transitionSchema, 'must be a list of transitions')
			.optional()
			.describe('Checked before the state transitions, in every state'),
		workflows: z
			.record(
				workflowName,
				z.strictObject({
					description: z.string('must be text').optional(),
					returns: z
						.array(z.string('must be a field name').min(1), 'must be a list of field names')
						.optional()
						.describe('The fields its result has, when known: "store" is checked against them'),
				}),
				'must map workflow names to their descriptions',
			)
			.optional()
			.describe(
				'The n8n workflows "call" may name; the Scenario node maps each name to a workflow',
			),
		states: z
			.record(stateName, stateSchema, 'must be an object of states')
			.refine((states) => Object.keys(states).length > 0, 'must hold at least one state'),
	})
	.meta({ title: 'Messaging bot scenario' });

export type ScenarioDocument = z.output<typeof scenarioSchema>;
export type StateDef = z.output<typeof stateSchema>;
export type TransitionDef = z.output<typeof transitionSchema>;
export type Matcher = z.output<typeof matcherSchema>;
export type Condition = z.output<typeof conditionSchema>;
export type ActionDef = z.output<typeof actionSchema>;
export type Check = z.output<typeof checkSchema>;
export type CaptureDef = z.output<typeof captureSchema>;
export type TimerDef = z.output<typeof timerSchema>;
export type BranchDef = z.output<typeof branchSchema>;
export type CallDef = z.output<typeof callSchema>;
export type CallOutcome = 'success' | 'empty' | 'failure' | 'timeout';

/** The JSON Schema editors use (written to scenario.schema.json by scripts/scenario-schema.ts). */
export function scenarioJsonSchema(): Record<string, unknown> {
	return {
		...z.toJSONSchema(scenarioSchema, { target: 'draft-2020-12', io: 'input' }),
		$id: 'https://example.invalid/n8n-nodes-messaging-bot/scenario.schema.json',
	};
}

/** Every field name of the format, read from the schema itself (for "did you mean"). */
export const FORMAT_FIELDS: readonly string[] = [...fieldsOf(scenarioSchema, new Set())].filter(
	(name) => name !== '$schema',
);

function fieldsOf(schema: z.core.$ZodType, seen: Set<unknown>, out = new Set<string>()) {
	if (seen.has(schema)) return out;
	seen.add(schema);
	const def = schema._zod.def as unknown as Record<string, unknown>;
	const inner = (value: unknown) => fieldsOf(value as z.core.$ZodType, seen, out);
	if (def.type === 'object') {
		for (const [name, field] of Object.entries(def.shape as Record<string, unknown>)) {
			out.add(name);
			inner(field);
		}
	} else if (def.type === 'union') (def.options as unknown[]).forEach(inner);
	else if (def.type === 'array') inner(def.element);
	else if (def.type === 'record') inner(def.valueType);
	else if (def.innerType) inner(def.innerType);
	else if (def.type === 'pipe') {
		inner(def.in);
		inner(def.out);
	}
	return out;
}
