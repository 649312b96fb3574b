import { z } from 'zod/v4';

/**
 * The scenario format: a JSON document a bot designer writes. This schema checks the shape of
 * every field; `validate.ts` adds the rules that span fields (targets, variables, templates) and
 * reports both kinds together. `scenario.schema.json` is generated from it for editors.
 */

/** State names become xstate state keys, so no dots or '#'; a leading "__" is reserved. */
export const STATE_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
export const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
export const SCENARIO_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** The longest message the service sends (docs/service-assumptions.md A11). */
export const MAX_TEXT = 4096;
/** A timer longer than this is a scheduling job, not a reminder in a conversation. */
export const MAX_TIMER_MINUTES = 60 * 24 * 30;
export const MAX_RETRIES = 20;

const plain = z
	.string('must be text')
	.min(1, 'must not be empty')
	.max(MAX_TEXT, `must be at most ${MAX_TEXT} characters`);

/** Text the bot sends: a template checked when the scenario is validated. */
const text = plain.meta({
	id: 'Template',
	description: 'Text to send; may hold {{client.first_name}}, {{vars.NAME}} or {{message.text}}',
});

const oneOrMore = <T extends z.ZodType>(item: T) =>
	z.union([item, z.array(item, 'must be a list of texts').min(1, 'must not be empty')], {
		error: 'must be a text or a list of texts',
	});
/** Words a message is compared with. */
const words = oneOrMore(plain);

const stateName = z
	.string('must be a state name')
	.regex(
		STATE_NAME,
		'must start with a letter and hold only letters, digits, "_" or "-" (at most 64)',
	);

const varName = z
	.string('must be a variable name')
	.regex(VAR_NAME, 'must be letters, digits or "_", not starting with a digit (at most 64)');

const scenarioId = z
	.string('must be a scenario id')
	.regex(SCENARIO_ID, 'must be letters, digits, "_" or "-" (at most 64)');

/** Tags follow the service's rules (A21): non-empty after trimming, at most 64 characters. */
const tag = z
	.string('must be a tag')
	.trim()
	.min(1, 'must be a non-empty tag')
	.max(64, 'must be at most 64 characters');
const tags = z.array(tag, 'must be a list of tags').min(1, 'must list at least one tag').max(100);

const range = z
	.strictObject({
		min: z.number('must be a number').optional(),
		max: z.number('must be a number').optional(),
	})
	.describe('Inclusive bounds; either may be left out');

const caseSensitive = z
	.boolean('must be true or false')
	.optional()
	.describe('Compare letter case exactly (default: case-insensitive)');

export const matcherSchema = z
	.union(
		[
			z
				.strictObject({ equals: words, caseSensitive })
				.describe('The whole message is one of these'),
			z
				.strictObject({ contains: words, caseSensitive })
				.describe('The message contains one of these'),
			z
				.strictObject({ startsWith: words, caseSensitive })
				.describe('The message starts with one of these'),
			z
				.strictObject({ regex: z.string('must be a regular expression').min(1), caseSensitive })
				.describe('A JavaScript regular expression finds a match in the message'),
			z.strictObject({ number: range }).describe('The message is a number within the bounds'),
			z.strictObject({ any: z.literal(true, 'must be true') }).describe('Any message'),
		],
		{ error: 'must have exactly one of: equals, contains, startsWith, regex, number, any' },
	)
	.meta({
		id: 'Matcher',
		description: 'How the client message is matched (trimmed; case-insensitive unless told)',
	});

export const conditionSchema = z
	.union(
		[
			z.strictObject({ tag }).describe('The client has this tag'),
			z.strictObject({ notTag: tag }).describe('The client does not have this tag'),
			z
				.strictObject({
					var: varName,
					set: z.boolean('must be true or false').optional(),
					equals: words.optional(),
					notEquals: words.optional(),
					min: z.number('must be a number').optional(),
					max: z.number('must be a number').optional(),
				})
				.describe('A variable is set, equals (case-insensitive) or is a number within bounds'),
		],
		{ error: 'must be {"tag": …}, {"notTag": …} or {"var": …, …}' },
	)
	.meta({ id: 'Condition', description: 'A guard: every condition of a transition must hold' });

export const actionSchema = z
	.union(
		[
			z.strictObject({ reply: text }).describe('Send a message'),
			z.strictObject({ addTags: tags }).describe('Add tags to the client (PUT /clients/{id}/tags)'),
			z
				.strictObject({ removeTags: tags })
				.describe('Remove tags from the client (PUT /clients/{id}/tags)'),
			z
				.strictObject({
					set: z.record(
						varName,
						z.string('must be text').max(MAX_TEXT),
						'must map variables to texts',
					),
				})
				.describe('Set variables; values may be templates'),
			z
				.strictObject({ handoff: z.literal(true, 'must be true') })
				.describe('Hand the client to a human: the bot stays silent until released'),
			z
				.strictObject({
					goto: z.strictObject({ scenario: scenarioId, state: stateName.optional() }),
				})
				.describe('Continue in another scenario (at its start, or at the given state)'),
			z.strictObject({ end: z.literal(true, 'must be true') }).describe('End the conversation'),
		],
		{
			error: 'must have exactly one of: reply, addTags, removeTags, set, handoff, goto, end',
		},
	)
	.meta({ id: 'Action', description: 'Something the bot does' });

const actions = z.array(actionSchema, 'must be a list of actions');

export const transitionSchema = z
	.strictObject({
		match: matcherSchema,
		when: z.array(conditionSchema, 'must be a list of conditions').optional(),
		actions: actions.optional(),
		target: stateName.optional().describe('The state to go to (re-entered if it is this one)'),
	})
	.meta({ id: 'Transition' });

export const checkSchema = z
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

export const captureSchema = z
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

export const timerSchema = z
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

export const stateSchema = z
	.strictObject({
		description: z.string('must be text').optional(),
		messages: z.array(text, 'must be a list of texts').optional().describe('Sent on entry'),
		actions: actions.optional().describe('Run on entry, after the messages'),
		on: z.array(transitionSchema, 'must be a list of transitions').optional(),
		capture: captureSchema.optional(),
		after: timerSchema.optional(),
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
		variables: z
			.array(varName, 'must be a list of variable names')
			.optional()
			.describe('Variables used in templates and guards (capture.into declares one too)'),
		fallback: text.optional().describe('Sent when no transition matches'),
		keywords: z
			.array(transitionSchema, 'must be a list of transitions')
			.optional()
			.describe('Checked before the state transitions, in every state'),
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

/** The JSON Schema editors use (written to scenario.schema.json by scripts/scenario-schema.ts). */
export function scenarioJsonSchema(): Record<string, unknown> {
	return {
		...z.toJSONSchema(scenarioSchema, { target: 'draft-2020-12', io: 'input' }),
		$id: 'https://example.invalid/n8n-nodes-messaging-bot/scenario.schema.json',
	};
}
