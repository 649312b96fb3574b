/* eslint-disable @n8n/community-nodes/no-restricted-imports -- emulator tooling: node:http types, never loaded by n8n */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod/v4';

import { describeIssues, LIMITS, type FieldError } from './schemas';

/** An error the emulator answers with `{success: false, error: {code, message, details?}}`. */
export class HttpError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string,
		readonly details?: FieldError[],
		readonly headers: Record<string, string> = {},
	) {
		super(message);
	}
}

export const errors = {
	invalidClientId: () => new HttpError(400, 'invalid_client_id', 'Invalid client_id'),
	/** The dashboard's answer (the API's stays the service's): which clients exist, how to add one. */
	unseededClient: (id: string, known: Iterable<string>) => {
		const some = [...known].slice(0, 5);
		const listed = some.length ? `clients here: ${some.join(', ')}…` : 'no clients yet';
		return new HttpError(
			400,
			'invalid_client_id',
			`Invalid client_id: no client "${id}" in the emulator (${listed}); seed one with POST /_admin/clients {"clients": [{"first_name": "Ada", "email": "ada@example.com"}]} (its id is in the answer), or start the emulator without --no-seed for cl_ada and the others`,
		);
	},
	unauthorized: () =>
		new HttpError(401, 'unauthorized', 'Unauthorized', undefined, {
			'WWW-Authenticate': 'Bearer',
		}),
	botInactive: () => new HttpError(403, 'bot_inactive', 'Bot is inactive'),
	botNotFound: () => new HttpError(404, 'bot_not_found', 'Bot not found'),
	notFound: (what: string) => new HttpError(404, 'not_found', `${what} not found`),
	rateLimited: (retryAfterSeconds: number) =>
		new HttpError(429, 'rate_limited', 'Rate limit exceeded', undefined, {
			'Retry-After': String(retryAfterSeconds),
		}),
	internal: () => new HttpError(500, 'internal_error', 'Internal server error'),
};

export function sendJson(
	res: ServerResponse,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
): void {
	if (res.headersSent || res.destroyed) return;
	const text = JSON.stringify(body);
	res.writeHead(status, {
		'Content-Type': 'application/json; charset=utf-8',
		'Content-Length': Buffer.byteLength(text),
		...headers,
	});
	res.end(text);
}

export function sendError(res: ServerResponse, error: HttpError): void {
	const body: Record<string, unknown> = { code: error.code, message: error.message };
	if (error.details) body.details = error.details;
	sendJson(res, error.status, { success: false, error: body }, error.headers);
}

export function ok(res: ServerResponse, data: unknown, status = 200): void {
	sendJson(res, status, { success: true, data });
}

/** Reads the body up to the documented size; over it, the request is refused with 413. */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
	const declared = Number(req.headers['content-length'] ?? 0);
	if (declared > LIMITS.bodyBytes) throw tooLarge();
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of req) {
		size += (chunk as Buffer).length;
		if (size > LIMITS.bodyBytes) throw tooLarge();
		chunks.push(chunk as Buffer);
	}
	return Buffer.concat(chunks);
}

function tooLarge(): HttpError {
	return new HttpError(
		413,
		'payload_too_large',
		`Request body is larger than ${LIMITS.bodyBytes} bytes`,
	);
}

/** Parses a JSON object body. Empty bodies are `undefined`; anything else must be JSON. */
export function parseJsonBody(req: IncomingMessage, raw: Buffer): unknown {
	if (raw.length === 0) return undefined;
	const type = String(req.headers['content-type'] ?? '')
		.split(';')[0]
		.trim()
		.toLowerCase();
	if (type !== 'application/json') {
		throw new HttpError(
			415,
			'unsupported_media_type',
			'Content-Type must be application/json for a request with a body',
		);
	}
	const parsed = tryJson(raw.toString('utf8'));
	if ('error' in parsed) {
		throw new HttpError(400, 'malformed_json', `Request body is not valid JSON: ${parsed.error}`);
	}
	if (jsonTooDeep(parsed.value)) throw tooDeep('body', 'body');
	return parsed.value;
}

/** True when `value` nests objects/arrays more than LIMITS.jsonDepth levels (recursion stops there). */
export function jsonTooDeep(value: unknown, depth = 1): boolean {
	if (value === null || typeof value !== 'object') return false;
	if (depth > LIMITS.jsonDepth) return true;
	return Object.values(value).some((v) => jsonTooDeep(v, depth + 1));
}

export function tooDeep(where: 'body' | 'query', field: string): HttpError {
	const rule = `must not nest deeper than ${LIMITS.jsonDepth} levels`;
	const message = `Invalid ${where === 'body' ? 'request body' : 'query'}: ${field} ${rule}`;
	return new HttpError(400, 'validation_error', message, [{ field, rule }]);
}

export function tryJson(text: string): { value: unknown } | { error: string } {
	try {
		return { value: JSON.parse(text) };
	} catch (error) {
		return { error: (error as Error).message };
	}
}

export function validate<T extends z.ZodType>(
	schema: T,
	input: unknown,
	where: 'body' | 'query',
): z.output<T> {
	if (where === 'body' && (input === null || typeof input !== 'object' || Array.isArray(input))) {
		throw new HttpError(400, 'validation_error', 'Request body must be a JSON object', [
			{ field: 'body', rule: 'must be a JSON object' },
		]);
	}
	const result = schema.safeParse(input);
	if (result.success) return result.data;
	const { message, details } = describeIssues(result.error, where);
	throw new HttpError(400, 'validation_error', message, details);
}

export function queryObject(url: URL): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [key, value] of url.searchParams) {
		if (key in out) {
			throw new HttpError(
				400,
				'validation_error',
				`Invalid query: ${key} is given more than once`,
				[{ field: key, rule: 'is given more than once' }],
			);
		}
		out[key] = value;
	}
	return out;
}
