import * as z from 'zod/v4';

/**
 * A message of a client's history. The spec does not show its fields (A24); other names a
 * service plausibly uses are read into the documented ones, and the originals are kept:
 * `id` for `message_id`, `created_at`/`sent_at` for `timestamp`, `body`/`content` for `text`,
 * and who wrote it from `direction`, `sender`, `from`, `author` or `role`.
 */
const DIRECTIONS: Record<string, 'inbound' | 'outbound'> = {
	inbound: 'inbound',
	in: 'inbound',
	incoming: 'inbound',
	received: 'inbound',
	client: 'inbound',
	customer: 'inbound',
	user: 'inbound',
	contact: 'inbound',
	outbound: 'outbound',
	out: 'outbound',
	outgoing: 'outbound',
	sent: 'outbound',
	bot: 'outbound',
	agent: 'outbound',
	operator: 'outbound',
};

const isObject = (v: unknown): v is Record<string, unknown> =>
	typeof v === 'object' && v !== null && !Array.isArray(v);

function firstString(raw: Record<string, unknown>, keys: string[]): string | undefined {
	for (const key of keys) {
		const value = raw[key];
		if (typeof value === 'string' && value !== '') return value;
		if (typeof value === 'number' && key.endsWith('id')) return String(value);
	}
	return undefined;
}

/** Who wrote it: a direction word, a role (`{type: "bot"}`), or the id of the client or bot. */
function directionOf(raw: Record<string, unknown>): string | undefined {
	for (const key of ['direction', 'sender', 'from', 'author', 'role']) {
		let value = raw[key];
		if (isObject(value)) value = value.type ?? value.role ?? value.kind ?? value.id;
		if (typeof value !== 'string') continue;
		const known = DIRECTIONS[value.toLowerCase()];
		if (known) return known;
		if (value === raw.client_id) return 'inbound';
		if (value === raw.bot_id) return 'outbound';
		// An unknown word under the documented name is passed through as it came (like bot status).
		if (key === 'direction') return value;
	}
	return undefined;
}

export function normaliseHistoryItem(raw: unknown): unknown {
	if (!isObject(raw)) return raw;
	const documented: Record<string, unknown> = {
		message_id: firstString(raw, ['message_id', 'id', 'messageId']),
		client_id: firstString(raw, ['client_id', 'clientId']),
		bot_id: firstString(raw, ['bot_id', 'botId']),
		direction: directionOf(raw),
		text: firstString(raw, ['text', 'body', 'content', 'message']),
		type: raw.type,
		channel: raw.channel,
		timestamp: firstString(raw, [
			'timestamp',
			'created_at',
			'sent_at',
			'createdAt',
			'sentAt',
			'date',
		]),
	};
	const out: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(documented)) if (value !== undefined) out[key] = value;
	for (const [key, value] of Object.entries(raw)) if (!(key in out)) out[key] = value;
	return out;
}

export const messageSchema = z.preprocess(
	normaliseHistoryItem,
	z.looseObject({
		message_id: z.string().optional(),
		client_id: z.string().optional(),
		bot_id: z.string().optional(),
		direction: z.string().optional(),
		text: z.string().optional(),
		timestamp: z.string().optional(),
	}),
);
