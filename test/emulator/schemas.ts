import { z } from 'zod/v4';

/** Cross-field rules speak only once every field is valid on its own. */
const fieldsValid = (payload: { issues: unknown[] }) => payload.issues.length === 0;

/**
 * Request validation of the emulator. Bodies and query strings are strict: an unknown field is
 * a 400 naming it, so a client that sends a typo finds out here rather than in production.
 * Limits are those of docs/service-assumptions.md.
 */
export const LIMITS = {
	bodyBytes: 65_536,
	customFieldsBytes: 16_384,
	textChars: 4_096,
	tagChars: 64,
	pageDefault: 50,
	pageMax: 1_000,
	/** Nesting levels of a JSON body or query value; deeper JSON overflows the stack when re-serialised. */
	jsonDepth: 100,
} as const;

const EVENT_TYPES = [
	'message.received',
	'message.sent',
	'message.read',
	'client.created',
	'client.updated',
	'client.tagged',
	'order.created',
	'order.updated',
	'order.completed',
	'bot.started',
	'bot.stopped',
	'bot.error',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
export const TEST_EVENT = 'webhook.test';

const ymd = z
	.string()
	.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date in the form YYYY-MM-DD')
	.refine((s) => {
		const d = new Date(`${s}T00:00:00Z`);
		return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
	}, 'must be a real calendar date');

/** Query values arrive as strings; integers are parsed strictly (no "1e3", no "12abc"). */
const intParam = (min: number, max: number) =>
	z
		.string()
		.regex(/^\d+$/, 'must be a whole number')
		.transform(Number)
		.pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

const email = z.string().max(254).email('must be a valid email address');
const phone = z
	.string()
	.regex(/^\+[1-9]\d{6,14}$/, 'must be in international format: a plus, then 7 to 15 digits');

function jsonBytes(value: unknown): number {
	return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

const customFields = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
	const bytes = jsonBytes(value);
	if (bytes > LIMITS.customFieldsBytes) {
		ctx.addIssue({
			code: 'custom',
			message: `must be at most ${LIMITS.customFieldsBytes} bytes as compact JSON (got ${bytes})`,
		});
	}
});

const tag = z
	.string()
	.trim()
	.min(1, 'must be a non-empty string')
	.max(LIMITS.tagChars, `must be at most ${LIMITS.tagChars} characters`);

export const sendMessageBody = z.strictObject({
	client_id: z.string().min(1, 'is required'),
	text: z
		.string()
		.min(1, 'must not be empty')
		.max(LIMITS.textChars, `must be at most ${LIMITS.textChars} characters`),
	type: z.literal('text', 'must be "text"').optional(),
});

export const statsQuery = z.strictObject({ from: ymd.optional(), to: ymd.optional() });

export const searchClientsQuery = z.strictObject({
	email: z.string().optional(),
	phone: z.string().optional(),
	tags: z.string().optional(),
	created_after: ymd.optional(),
	custom_fields: z.string().optional(),
	limit: intParam(1, LIMITS.pageMax).optional(),
	offset: intParam(0, Number.MAX_SAFE_INTEGER).optional(),
});

export const pageQuery = z.strictObject({
	limit: intParam(1, LIMITS.pageMax).optional(),
	offset: intParam(0, Number.MAX_SAFE_INTEGER).optional(),
});

export const createClientBody = z
	.strictObject({
		email: email.optional(),
		phone: phone.optional(),
		first_name: z.string().max(200).optional(),
		last_name: z.string().max(200).optional(),
		custom_fields: customFields.optional(),
		tags: z.array(tag).max(100).optional(),
	})
	.refine((b) => b.email !== undefined || b.phone !== undefined, {
		message: 'email or phone is required to recognise the client',
		path: ['email'],
		when: fieldsValid,
	});

export const updateTagsBody = z
	.strictObject({
		add: z.array(tag).max(100).optional(),
		remove: z.array(tag).max(100).optional(),
	})
	.refine((b) => (b.add?.length ?? 0) + (b.remove?.length ?? 0) > 0, {
		message: 'add or remove must list at least one tag',
		path: ['add'],
		when: fieldsValid,
	})
	.refine((b) => !(b.add ?? []).some((t) => (b.remove ?? []).includes(t)), {
		message: 'a tag cannot be both added and removed',
		path: ['remove'],
		when: fieldsValid,
	});

// ---- admin API ----

export const adminBotBody = z.strictObject({
	id: z
		.string()
		.regex(/^[A-Za-z0-9_-]{1,64}$/)
		.optional(),
	name: z.string().min(1).max(200),
	status: z.enum(['active', 'inactive']).optional(),
	channels: z.array(z.string().min(1)).min(1).optional(),
	scenarios: z.array(z.string().min(1)).optional(),
});

export const adminBotPatch = z.strictObject({
	name: z.string().min(1).max(200).optional(),
	status: z.enum(['active', 'inactive']).optional(),
	channels: z.array(z.string().min(1)).min(1).optional(),
	scenarios: z.array(z.string().min(1)).optional(),
});

export const adminClientsBody = z.union([
	z.strictObject({
		count: z.number().int().min(1).max(100_000),
		tags: z.array(tag).optional(),
		email_domain: z.string().optional(),
	}),
	z.strictObject({ clients: z.array(createClientBody).min(1).max(10_000) }),
]);

const subscriptionUrl = z.url('must be an absolute URL').refine((u) => {
	// zod runs this check even when the url check failed; that issue already says what is wrong.
	const url = URL.parse(u);
	if (!url || url.protocol === 'https:') return true;
	return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}, 'must use https (plain http is allowed only for localhost, 127.0.0.1 and [::1])');

const eventSelection = z.array(z.enum([...EVENT_TYPES, '*'])).min(1);

export const subscriptionBody = z.strictObject({
	url: subscriptionUrl,
	secret: z.string().min(1).max(512).optional(),
	events: eventSelection.optional(),
	active: z.boolean().optional(),
});

export const subscriptionPatch = z.strictObject({
	url: subscriptionUrl.optional(),
	secret: z.string().min(1).max(512).nullable().optional(),
	events: eventSelection.optional(),
	active: z.boolean().optional(),
});

export const inboundBody = z.strictObject({
	bot_id: z.string().min(1),
	client_id: z.string().min(1),
	text: z.string().min(1).max(LIMITS.textChars),
	channel: z.string().min(1).optional(),
	message_id: z.string().min(1).optional(),
});

export const eventBody = z.strictObject({
	event: z.enum(EVENT_TYPES),
	data: z.record(z.string(), z.unknown()).optional(),
});

export const faultBody = z.strictObject({
	path: z.string().startsWith('/v1/', 'must start with /v1/'),
	method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).optional(),
	kind: z.enum(['error', 'hang', 'answer']).optional(),
	// error: 400-599; answer: any status, 2xx included.
	status: z.number().int().min(200).max(599).optional(),
	// answer: the body sent instead of the real one (the request is processed as usual).
	body: z.string().max(10_000).optional(),
	count: z.number().int().min(1).max(100_000).optional(),
	delay_ms: z.number().int().min(0).max(600_000).optional(),
});

export const clockBody = z.strictObject({
	ms: z
		.number()
		.int()
		.min(0)
		.max(31 * 86_400_000),
});

export const configBody = z.strictObject({
	rate_limit: z.number().int().min(1).max(1_000_000).optional(),
	rate_window_ms: z.number().int().min(1).max(3_600_000).optional(),
	delivery_timeout_ms: z.number().int().min(1).max(60_000).optional(),
	time_scale: z.number().min(0.001).max(1_000_000).optional(),
	retry_delays_ms: z.array(z.number().int().min(0)).max(10).optional(),
});

export type FieldError = { field: string; rule: string };

/** Turns zod issues into one readable sentence plus per-field details. */
export function describeIssues(
	error: z.ZodError,
	where: 'body' | 'query',
): {
	message: string;
	details: FieldError[];
} {
	const details: FieldError[] = [];
	for (const issue of error.issues) {
		if (issue.code === 'unrecognized_keys') {
			for (const key of issue.keys) {
				details.push({
					field: [...issue.path, key].join('.'),
					rule: `is not a known ${where === 'body' ? 'field' : 'query parameter'}`,
				});
			}
			continue;
		}
		const field = issue.path.join('.') || where;
		const rule =
			issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message;
		details.push({ field, rule });
	}
	const message = `Invalid ${where === 'body' ? 'request body' : 'query'}: ${details
		.map((d) => `${d.field} ${d.rule}`)
		.join('; ')}`;
	return { message, details };
}

export const noQuery = z.strictObject({});
