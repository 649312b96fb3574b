import * as z from 'zod/v4';

import { SCENARIO_ID } from './scenario-id';

/**
 * The scenario format's building blocks: names, texts, matchers, guards and actions; schema.ts
 * puts them together into states and the document.
 */

/** State names become xstate state keys, so no dots or '#'; a leading "__" is reserved. */
const STATE_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** The longest message the service sends (docs/service-assumptions.md#a11). */
export const MAX_TEXT = 4096;
/** A timer longer than this is a scheduling job, not a reminder in a conversation. */
export const MAX_TIMER_MINUTES = 60 * 24 * 30;
export const MAX_RETRIES = 20;

export const plain = z
	.string('must be text')
	.min(1, 'must not be empty')
	.max(MAX_TEXT, `must be at most ${MAX_TEXT} characters`);

/** Text the bot sends: a template checked when the scenario is validated. */
export const text = plain.meta({
	id: 'Template',
	description: 'Text to send; may hold {{client.first_name}}, {{vars.NAME}} or {{message.text}}',
});

export const oneOrMore = <T extends z.ZodType>(item: T) =>
	z.union([item, z.array(item, 'must be a list of texts').min(1, 'must not be empty')], {
		error: 'must be a text or a list of texts',
	});
/** Words a message is compared with. */
const words = oneOrMore(plain);

export const stateName = z
	.string('must be a state name')
	.regex(
		STATE_NAME,
		'must start with a letter and hold only letters, digits, "_" or "-" (at most 64)',
	);

export const varName = z
	.string('must be a variable name')
	.regex(VAR_NAME, 'must be letters, digits or "_", not starting with a digit (at most 64)');

export const scenarioId = z
	.string('must be a scenario id')
	.regex(SCENARIO_ID, 'must be letters, digits, "_" or "-" (at most 64)');

/** Tags follow the service's rules (A21): non-empty after trimming, at most 64 characters. */
export const tag = z
	.string('must be a tag')
	.trim()
	.min(1, 'must be a non-empty tag')
	.max(64, 'must be at most 64 characters');
const tags = z.array(tag, 'must be a list of tags').min(1, 'must list at least one tag').max(100);

export const range = z
	.strictObject({
		min: z.number('must be a number').optional(),
		max: z.number('must be a number').optional(),
	})
	.describe('Inclusive bounds; either may be left out');

export const caseSensitive = z
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
				.strictObject({ order: z.enum(['found', 'missing'], 'must be "found" or "missing"') })
				.describe('A "findOrder" action found an order (or found none)'),
			z
				.strictObject({ orderStatus: words })
				.describe('The order found has one of these statuses (case-insensitive)'),
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
		{
			error:
				'must be {"tag": …}, {"notTag": …}, {"order": "found"}, {"orderStatus": …} or {"var": …, …}',
		},
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
			z
				.strictObject({ findOrder: plain })
				.describe(
					'Find one of the client\'s orders by its number (a template, e.g. {{vars.order_number}}) or "latest"; {{order.status}} and order guards then read it',
				),
		],
		{
			error:
				'must have exactly one of: reply, addTags, removeTags, set, handoff, goto, end, findOrder',
		},
	)
	.meta({ id: 'Action', description: 'Something the bot does' });

export const actions = z.array(actionSchema, 'must be a list of actions');
