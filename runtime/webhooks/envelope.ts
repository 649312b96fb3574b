import * as z from 'zod/v4';

import { EVENT_TYPES, TEST_EVENT } from './events';

const isoTimestamp = z
	.string()
	.refine((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO 8601 timestamp');

/** The delivery body of the spec: {event, data, webhook_id, timestamp}; extra members tolerated. */
const envelopeSchema = z.looseObject({
	event: z.enum([...EVENT_TYPES, TEST_EVENT], "must be one of the service's event types"),
	data: z.record(z.string(), z.unknown(), 'must be a JSON object'),
	webhook_id: z.string('must be a string').min(1, 'must not be empty'),
	timestamp: isoTimestamp,
});

const messageData = z.looseObject({
	message_id: z.string('must be a string').min(1),
	client_id: z.string('must be a string').min(1),
	bot_id: z.string('must be a string').min(1),
	text: z.string('must be a string'),
});

export type Envelope = z.output<typeof envelopeSchema>;

export type ParsedEnvelope = { ok: true; envelope: Envelope } | { ok: false; error: string };

/** Parses raw delivery bytes. Never throws: malformed input comes back as a readable error. */
export function parseEnvelope(raw: Uint8Array | string): ParsedEnvelope {
	const text = typeof raw === 'string' ? raw : Buffer.from(raw).toString('utf8');
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		return { ok: false, error: 'The body is not valid JSON' };
	}
	const parsed = envelopeSchema.safeParse(json);
	if (!parsed.success) return { ok: false, error: describe(parsed.error, json) };
	if (parsed.data.event === 'message.received') {
		const data = messageData.safeParse(parsed.data.data);
		if (!data.success) return { ok: false, error: describe(data.error, parsed.data.data, 'data') };
	}
	return { ok: true, envelope: parsed.data };
}

/** Each problem as "field rule"; "is required" only where the field is really absent. */
function describe(error: z.ZodError, input: unknown, prefix?: string): string {
	return error.issues
		.map((i) => {
			const field = [prefix, ...i.path.map(String)].filter(Boolean).join('.') || 'body';
			const absent = i.code === 'invalid_type' && valueAt(input, i.path) === undefined;
			return `${field} ${absent ? 'is required' : i.message}`;
		})
		.join('; ');
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
	let value = input;
	for (const key of path) {
		if (value === null || typeof value !== 'object') return undefined;
		value = (value as Record<PropertyKey, unknown>)[key];
	}
	return value;
}
