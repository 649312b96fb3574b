import * as z from 'zod/v4';

import { ValidationError, type FieldIssue } from './errors';
import { messageSchema } from './history-item';

export { messageSchema, normaliseHistoryItem } from './history-item';

/** Cross-field rules speak only once every field is valid on its own. */
const fieldsValid = (payload: { issues: unknown[] }) => payload.issues.length === 0;

/** Limits of docs/service-assumptions.md, checked before a request is made. */
export const LIMITS = {
	customFieldsBytes: 16_384,
	textChars: 4_096,
	tagChars: 64,
	tagsPerRequest: 100,
	pageDefault: 50,
	pageMax: 1_000,
	rateLimit: 100,
	rateWindowMs: 60_000,
} as const;

/** 16384 → "16,384": a count as people read it. */
const count = (n: number) => n.toLocaleString('en-US');

/** Size of custom fields as the service measures it: compact JSON, UTF-8 bytes (A20). */
export function jsonBytes(value: unknown): number {
	return new TextEncoder().encode(JSON.stringify(value)).length;
}

const date = z
	.string()
	.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD')
	.refine((s) => {
		const d = new Date(`${s}T00:00:00Z`);
		return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
	}, 'must be a real calendar date');

const id = (what: string) =>
	z
		.string()
		.trim()
		.min(1, `must be a non-empty ${what}`)
		.max(200, 'must be at most 200 characters');

const tag = z
	.string('must be a string')
	.trim()
	.min(1, 'must be a non-empty string')
	.max(LIMITS.tagChars, `must be at most ${LIMITS.tagChars} characters`);

const tagList = z
	.array(tag, 'must be a list of tags')
	.max(LIMITS.tagsPerRequest, `must list at most ${LIMITS.tagsPerRequest} tags`);

export const email = z
	.string()
	.trim()
	.max(254, 'must be at most 254 characters')
	.email('must be a valid email address, like name@example.com');

/** Spaces, dashes, dots and brackets as people write a number: "+44 7911 123456" is tidied. */
export const phone = z
	.string()
	.trim()
	.overwrite((value) => value.replace(/[\s\-.()]/g, ''))
	.regex(
		/^\+[1-9]\d{6,14}$/,
		'must be in international format: a plus sign, then 7 to 15 digits (e.g. +44 7911 123456)',
	);

const customFields = z
	.record(z.string(), z.unknown(), 'must be a JSON object (like {"plan": "pro"})')
	.superRefine((value, ctx) => {
		const bytes = jsonBytes(value);
		if (bytes > LIMITS.customFieldsBytes) {
			ctx.addIssue({
				code: 'custom',
				message: `are too large: ${count(bytes)} bytes, and the service takes at most ${count(LIMITS.customFieldsBytes)} (16 KB, counted as compact JSON). Keep fewer or shorter fields`,
			});
		}
	});

const pageLimit = z
	.number('must be a number')
	.int('must be a whole number')
	.min(1, 'must be at least 1')
	.max(LIMITS.pageMax, `must be at most ${LIMITS.pageMax}`);
const pageOffset = z
	.number('must be a number')
	.int('must be a whole number')
	.min(0, 'must be 0 or more');

export const schemas = {
	botId: id('bot ID'),
	clientId: id('client ID'),
	scenarioId: id('scenario ID'),
	sendMessage: z.strictObject({
		client_id: id('client ID'),
		text: z
			.string('must be text')
			// A text of spaces shows as an empty message: refused like an empty one.
			.refine((s) => s.trim().length > 0, 'must not be empty or only spaces')
			.superRefine((value, ctx) => {
				if (value.length > LIMITS.textChars)
					ctx.addIssue({
						code: 'custom',
						message: `is too long: ${count(value.length)} characters, and the service sends at most ${count(LIMITS.textChars)}. Shorten it, or send it as two messages`,
					});
			}),
		type: z.literal('text', 'must be "text"').optional(),
	}),
	statsPeriod: z
		.strictObject({ from: date.optional(), to: date.optional() })
		.refine((p) => !p.from || !p.to || p.from <= p.to, {
			message: 'must not be after the "to" date',
			path: ['from'],
			when: fieldsValid,
		}),
	clientFilters: z.strictObject({
		email: z.string().trim().min(1).optional(),
		phone: phone.optional(),
		tags: tagList.optional(),
		created_after: date.optional(),
		custom_fields: z.record(z.string(), z.unknown(), 'must be a JSON object').optional(),
	}),
	page: z.strictObject({ limit: pageLimit.optional(), offset: pageOffset.optional() }),
	createClient: z
		.strictObject({
			email: email.optional(),
			phone: phone.optional(),
			first_name: z.string().max(200, 'must be at most 200 characters').optional(),
			last_name: z.string().max(200, 'must be at most 200 characters').optional(),
			custom_fields: customFields.optional(),
			tags: tagList.optional(),
		})
		.refine((c) => c.email !== undefined || c.phone !== undefined, {
			message: 'or phone is required: the service recognises a client by email or phone',
			path: ['email'],
			when: fieldsValid,
		}),
	updateTags: z
		.strictObject({ add: tagList.optional(), remove: tagList.optional() })
		.refine((t) => (t.add?.length ?? 0) + (t.remove?.length ?? 0) > 0, {
			message: 'or remove must list at least one tag',
			path: ['add'],
			when: fieldsValid,
		})
		.refine((t) => !(t.add ?? []).some((x) => (t.remove ?? []).includes(x)), {
			message: 'must not name a tag that is also being added',
			path: ['remove'],
			when: fieldsValid,
		}),
};

/** Parses input or throws a ValidationError naming every broken field and its rule. */
export function check<T extends z.ZodType>(schema: T, input: unknown, field?: string): z.output<T> {
	const result = schema.safeParse(input);
	if (result.success) return result.data;
	const issues: FieldIssue[] = [];
	for (const issue of result.error.issues) {
		if (issue.code === 'unrecognized_keys') {
			for (const key of issue.keys) issues.push({ field: key, rule: 'is not a known field' });
			continue;
		}
		const path = [field, ...issue.path.map(String)].filter(Boolean).join('.');
		const rule =
			issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message;
		issues.push({ field: path || 'input', rule });
	}
	throw new ValidationError(issues);
}

/** Client filters as the query string carries them (A15): tags comma-separated, custom fields as JSON. */
export function clientQuery(
	filters: z.output<typeof schemas.clientFilters>,
): Record<string, string | undefined> {
	return {
		email: filters.email,
		phone: filters.phone,
		tags: filters.tags?.join(','),
		created_after: filters.created_after,
		custom_fields: filters.custom_fields ? JSON.stringify(filters.custom_fields) : undefined,
	};
}

// ---- responses: tolerant of extra fields, strict about what we rely on ----

const nullableString = z.string().nullable().optional();

export const botSchema = z.looseObject({
	id: z.string(),
	name: z.string(),
	status: z.string(),
	created_at: z.string().optional(),
	channels: z.array(z.string()).optional().default([]),
});

export const clientSchema = z.looseObject({
	id: z.string(),
	email: nullableString,
	phone: nullableString,
	first_name: nullableString,
	last_name: nullableString,
	custom_fields: z.record(z.string(), z.unknown()).nullable().optional(),
	tags: z.array(z.string()).optional().default([]),
	created_at: z.string().optional(),
	// The full record's recent history (A22), read like the history itself.
	messages: z.array(messageSchema).optional(),
});

export const statsSchema = z.looseObject({
	new_clients: z.number(),
	messages: z.number(),
	active_clients: z.number().optional(),
	conversion: z.number().optional(),
});

export type Bot = z.output<typeof botSchema>;
export type Client = z.output<typeof clientSchema>;
export type HistoryMessage = z.output<typeof messageSchema>;
export type BotStats = z.output<typeof statsSchema>;
/**
 * The spec shows no send response (A12): what was sent, then whatever came back; `message_id`
 * only when the service gave one.
 */
export type SentMessage = {
	message_id?: string;
	bot_id: string;
	client_id: string;
	text: string;
	[field: string]: unknown;
};
/** The spec shows no activation response (A14): the ids and the change, then whatever came back. */
export type Activation = {
	bot_id: string;
	scenario_id: string;
	status: string;
	[field: string]: unknown;
};
/**
 * The spec shows no tag-update response (A21): the client's id and the change asked for, then
 * whatever came back (the updated record, on the emulator).
 */
export type TagUpdate = {
	id: string;
	tags_added: string[];
	tags_removed: string[];
	tags?: string[];
	[field: string]: unknown;
};
export type SendMessageInput = z.input<typeof schemas.sendMessage>;
export type StatsPeriod = z.input<typeof schemas.statsPeriod>;
export type ClientFilters = z.input<typeof schemas.clientFilters>;
export type CreateClientInput = z.input<typeof schemas.createClient>;
export type UpdateTagsInput = z.input<typeof schemas.updateTags>;
export type Page = z.input<typeof schemas.page>;
