/* eslint-disable @n8n/community-nodes/no-restricted-imports -- emulator tooling: node:http, never loaded by n8n */
import { STATUS_CODES, type ServerResponse } from 'node:http';

import type { Core } from './core';
import { ok, sendError, sendJson, type HttpError } from './http';
import { newId, type Bot, type Client, type HistoryMessage } from './state';

/**
 * How the API answers where the spec leaves the shape open. `default` answers as
 * docs/service-assumptions.md decides; `variant` answers each open shape in another plausible way
 * (the "variant profile answers" sentences there), so a client can be checked against both.
 */
export const PROFILES = ['default', 'variant'] as const;
export type Profile = (typeof PROFILES)[number];

/** The API's successful answers, named by what they carry. */
export type Shape =
	| 'bots'
	| 'sent'
	| 'stats'
	| 'activated'
	| 'clients'
	| 'created'
	| 'existing'
	| 'client'
	| 'tags'
	| 'history';

/** Answers a request that succeeded, in the shape of the current profile. */
export function answer(core: Core, res: ServerResponse, shape: Shape, data: unknown): void {
	if (core.profile === 'variant') variantAnswer(core, res, shape, data);
	// A18: a new client gets 201, an existing one 200.
	else ok(res, data, shape === 'created' ? 201 : 200);
}

/** Answers an error of the API (or any error, off the API) in the shape of the current profile. */
export function answerError(core: Core, res: ServerResponse, error: HttpError, path: string): void {
	const api = path === '/v1' || path.startsWith('/v1/');
	if (core.profile !== 'variant' || !api) return sendError(res, error);
	const { status, message, headers } = error;
	if (status === 401) return sendRaw(res, status, '', '', headers);
	if (status === 404 || status === 405) {
		const problem = { type: 'about:blank', title: STATUS_CODES[status], status, detail: message };
		return sendRaw(res, status, 'application/problem+json', JSON.stringify(problem), headers);
	}
	if (status >= 500) {
		const title = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
		const html = `<!DOCTYPE html>\n<html><head><title>${title}</title></head><body><h1>${title}</h1><p>The server could not complete your request.</p></body></html>\n`;
		return sendRaw(res, status, 'text/html; charset=utf-8', html, headers);
	}
	sendRaw(res, status, 'text/plain; charset=utf-8', message, headers);
}

/** How long the variant takes to list a client's message in the history (A39). */
const VARIANT_INBOUND_DELAY_MS = 1500;

/**
 * The history as listed (A39): a client's message as soon as it is written; the variant lists it
 * only once VARIANT_INBOUND_DELAY_MS has passed, so it may be delivered before it is listed.
 */
export function listedHistory(core: Core, history: HistoryMessage[]): HistoryMessage[] {
	if (core.profile !== 'variant') return history;
	const latest = core.clock.now() - VARIANT_INBOUND_DELAY_MS;
	return history.filter((m) => m.direction !== 'inbound' || Date.parse(m.timestamp) <= latest);
}

// ---- the variant's answers ----

function variantAnswer(core: Core, res: ServerResponse, shape: Shape, data: unknown): void {
	switch (shape) {
		case 'bots': {
			const bots = (data as Bot[]).map((b) => ({ ...b, language: 'en', webhook_enabled: true }));
			return sendJson(res, 200, { success: true, data: bots, meta: { count: bots.length } });
		}
		case 'sent': // accepted, nothing to say
			return sendRaw(res, 204, '', '');
		case 'stats': // no `success` member at all
			return sendJson(res, 200, {
				data: { ...(data as object), timezone: 'UTC', generated_at: core.clock.iso() },
			});
		case 'activated': // success without `data`, and a member of its own
			return sendJson(res, 200, { success: true, request_id: newId('req') });
		case 'clients': {
			const clients = (data as Client[]).map(moreClient);
			return sendJson(res, 200, { success: true, data: clients, meta: { count: clients.length } });
		}
		case 'created':
		case 'existing': // 200 either way; a flag beside `data` tells them apart
			return sendJson(res, 200, {
				success: true,
				created: shape === 'created',
				data: moreClient(data as Client),
			});
		case 'client': {
			const record = data as Client & { messages: HistoryMessage[] };
			const full = { ...moreClient(record), messages: record.messages.map(sentAtItem) };
			return sendJson(res, 200, { success: true, data: full });
		}
		case 'tags':
			return sendJson(res, 201, { success: true, data: moreClient(data as Client) });
		case 'history':
			return sendJson(res, 200, {
				success: true,
				data: (data as HistoryMessage[]).map(senderItem),
			});
	}
}

const moreClient = (c: Client) => ({ ...c, source: 'api', blocked: false });

/** A history item as `id`, `sender: client|bot` and `created_at`, with a member of its own. */
const senderItem = (m: HistoryMessage) => ({
	id: m.message_id,
	client_id: m.client_id,
	bot_id: m.bot_id,
	sender: m.direction === 'inbound' ? 'client' : 'bot',
	text: m.text,
	type: m.type,
	channel: m.channel,
	created_at: m.timestamp,
	read: true,
});

/** A history item as `id`, `direction: in|out` and `sent_at`. */
const sentAtItem = (m: HistoryMessage) => ({
	id: m.message_id,
	client_id: m.client_id,
	bot_id: m.bot_id,
	direction: m.direction === 'inbound' ? 'in' : 'out',
	text: m.text,
	type: m.type,
	channel: m.channel,
	sent_at: m.timestamp,
});

function sendRaw(
	res: ServerResponse,
	status: number,
	type: string,
	text: string,
	headers: Record<string, string> = {},
): void {
	if (res.headersSent || res.destroyed) return;
	const content = text
		? { 'Content-Type': type, 'Content-Length': Buffer.byteLength(text) }
		: status === 204
			? {}
			: { 'Content-Length': 0 };
	res.writeHead(status, { ...content, ...headers });
	res.end(status === 204 || !text ? undefined : text);
}
