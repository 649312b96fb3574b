/**
 * Typed errors for the spec's error table, validation and transport failures, and the factory
 * that turns an answer of the service (any status, any body) into one of them.
 */
import type { TransportError } from './transport';

export type FieldIssue = { field: string; rule: string };

export class MessagingBotError extends Error {
	/** HTTP status, or 0 when no answer came back. */
	readonly status: number;
	/** The service's own message, verbatim, when it sent one. */
	readonly serviceMessage: string | undefined;
	readonly code: string | undefined;
	/** Requests made for this operation, retries included. */
	attempts = 1;

	constructor(message: string, status: number, serviceMessage?: string, code?: string) {
		super(message);
		this.name = new.target.name;
		this.status = status;
		this.serviceMessage = serviceMessage;
		this.code = code;
	}
}

/** Input refused before any request: every broken field with its rule. */
export class ValidationError extends MessagingBotError {
	constructor(readonly issues: FieldIssue[]) {
		super(issues.map((i) => `${i.field} ${i.rule}`).join('; '), 0);
	}
}

export class InvalidClientIdError extends MessagingBotError {}
export class UnauthorizedError extends MessagingBotError {}
export class BotInactiveError extends MessagingBotError {}
export class NotFoundError extends MessagingBotError {}
export class RateLimitedError extends MessagingBotError {}
export class ServerError extends MessagingBotError {}
/** Any other 4xx: the service refused the input; `details` names fields when it said which. */
export class BadRequestError extends MessagingBotError {
	details: FieldIssue[] = [];
}
/** No answer (refused, timed out, reset) or an answer that is not the documented envelope. */
export class NetworkError extends MessagingBotError {
	constructor(
		message: string,
		readonly kind: 'connect' | 'timeout' | 'network',
		readonly mayHaveReachedService: boolean,
	) {
		super(message, 0);
	}
}
export class ResponseFormatError extends MessagingBotError {}

/** Sending is never blindly retried: this error says the message may or may not have gone out. */
export class SendOutcomeUnknownError extends MessagingBotError {
	constructor(
		readonly cause: MessagingBotError,
		readonly botId: string,
		readonly clientId: string,
	) {
		super(
			`The message may or may not have been sent (${cause.message}). It was not re-sent, so the client never gets it twice; check the client's message history before sending again.`,
			cause.status,
			cause.serviceMessage,
			cause.code,
		);
	}
}

/**
 * A 429 whose Retry-After asks for longer than the client waits: failing at once tells the user
 * now, where sleeping would hold the execution for that long. A 429 is refused before anything
 * happens (A5), so nothing was done.
 */
export class RetryAfterTooLongError extends RateLimitedError {
	constructor(
		cause: RateLimitedError,
		readonly waitMs: number,
		readonly maxWaitMs: number,
	) {
		super(
			`Rate limit exceeded: the service asked to wait ${duration(waitMs)} before the next request, longer than the ${duration(maxWaitMs)} this client waits at most. The request was not sent again and the service did not carry it out.`,
			cause.status,
			cause.serviceMessage,
			cause.code,
		);
		this.attempts = cause.attempts;
	}
}

/** A service that ignores `offset` answers every page alike: reading on would never end. */
export class RepeatedPageError extends ResponseFormatError {
	constructor(
		readonly operation: string,
		readonly offset: number,
		readonly itemsRead: number,
	) {
		super(
			`${operation} — the service returned the same page twice (offset ignored?): the page at offset ${offset} repeats the one before it, so reading stopped after ${itemsRead} items instead of looping forever.`,
			200,
		);
	}
}

// ---- from an answer to an error ----

/** What came back from a request the service accepted (any 2xx without `success: false`). */
export type Answer = {
	status: number;
	/** The envelope's `data`, when the body was a JSON object carrying one. */
	data: unknown;
	/** The whole body parsed as JSON, or undefined when it was empty or not JSON. */
	body: unknown;
	text: string;
};

export type Outcome = { ok: true; answer: Answer } | { ok: false; error: MessagingBotError };

const isObject = (v: unknown): v is Record<string, unknown> =>
	typeof v === 'object' && v !== null && !Array.isArray(v);

function parseJson(text: string): unknown {
	try {
		return text ? JSON.parse(text) : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Success is decided by the status and `success` alone: a 2xx is a success unless its body says
 * `success: false`, whatever else it holds (no body, plain text, no `data`). Anything else is
 * mapped to the spec's error table, whatever shape its body takes (A2).
 */
export function interpret(status: number, text: string): Outcome {
	const body = parseJson(text);
	const envelope = isObject(body) ? body : {};
	if (status >= 200 && status < 300) {
		if (envelope.success === false) {
			const message = serviceMessage(body, text) ?? 'The service reported a failure';
			return { ok: false, error: new BadRequestError(message, status, message, errorCode(body)) };
		}
		return { ok: true, answer: { status, data: envelope.data, body, text } };
	}
	return {
		ok: false,
		error: errorFor(status, serviceMessage(body, text), errorCode(body), fieldDetails(body)),
	};
}

function errorFor(
	status: number,
	message: string | undefined,
	code: string | undefined,
	details: FieldIssue[],
): MessagingBotError {
	const unknownClient = status === 400 && code === 'invalid_client_id';
	const text = message ?? (unknownClient ? 'Invalid client_id' : defaultMessage(status));
	if (status === 400 && (unknownClient || /invalid client_id/i.test(text)))
		return new InvalidClientIdError(text, status, message, code);
	if (status === 401) return new UnauthorizedError(text, status, message, code);
	if (status === 403) return new BotInactiveError(text, status, message, code);
	if (status === 404) return new NotFoundError(text, status, message, code);
	if (status === 429) return new RateLimitedError(text, status, message, code);
	if (status >= 500) return new ServerError(text, status, message, code);
	const error = new BadRequestError(text, status, message, code);
	error.details = details;
	return error;
}

/**
 * The spec's error table, for answers whose body says nothing readable. A bare 400 stays
 * "Bad request": the table's "Invalid client_id" is one cause of 400, not its meaning (A26).
 */
export function defaultMessage(status: number): string {
	const table: Record<number, string> = {
		400: 'Bad request',
		401: 'Unauthorized',
		403: 'Bot is inactive',
		404: 'Not found',
		429: 'Rate limit exceeded',
		500: 'Internal server error',
	};
	return table[status] ?? (status >= 500 ? 'Internal server error' : `HTTP ${status}`);
}

/**
 * The service's message, whatever the body: the documented `error.message` (A2), the common
 * JSON forms (`error` as text, `message`, `detail`, `errors[0]`, `title`), or a short line of
 * plain text. HTML, empty bodies and JSON of unknown form say nothing.
 */
export function serviceMessage(body: unknown, text: string): string | undefined {
	if (typeof body === 'string') return body.trim() || undefined;
	if (body === undefined) return plainText(text);
	if (!isObject(body)) return undefined;
	const error = body.error;
	const first = Array.isArray(body.errors) ? body.errors[0] : undefined;
	const candidates = [
		error,
		isObject(error) ? error.message : undefined,
		body.message,
		body.detail,
		body.error_description,
		first,
		isObject(first) ? first.message : undefined,
		body.title,
	];
	const found = candidates.find((c): c is string => typeof c === 'string' && c.trim() !== '');
	return found?.trim();
}

function plainText(text: string): string | undefined {
	const line = text.trim().split(/\r?\n/)[0]?.trim();
	if (!line || line.startsWith('<') || line.length > 300) return undefined;
	return line;
}

function errorCode(body: unknown): string | undefined {
	if (!isObject(body)) return undefined;
	const code = isObject(body.error) ? body.error.code : body.code;
	return typeof code === 'string' ? code : undefined;
}

function fieldDetails(body: unknown): FieldIssue[] {
	const details = isObject(body) && isObject(body.error) ? body.error.details : undefined;
	if (!Array.isArray(details)) return [];
	return details.filter(
		(d): d is FieldIssue =>
			isObject(d) && typeof d.field === 'string' && typeof d.rule === 'string',
	);
}

export function describeTransport(e: TransportError): string {
	if (e.kind === 'connect') return `Could not connect to the service (${e.code ?? e.message})`;
	if (e.kind === 'timeout') return 'The service did not answer in time';
	return `The connection to the service failed (${e.code ?? e.message})`;
}

/** A transport failing in a way it did not classify: it may have reached the service. */
export function unexpected(e: unknown): MessagingBotError {
	return new NetworkError(`Request failed: ${(e as Error)?.message ?? String(e)}`, 'network', true);
}

/** After a send failed: was it certainly not sent, or is the outcome unknown? (A17) */
export function sendFailure(error: unknown, botId: string, clientId: string): unknown {
	if (
		error instanceof ServerError ||
		(error instanceof NetworkError && error.mayHaveReachedService)
	) {
		const unknown = new SendOutcomeUnknownError(error, botId, clientId);
		unknown.attempts = error.attempts;
		return unknown;
	}
	return error;
}

/** "45 s", "10 min", "5 min 1 s", "1 h 30 min": how long the service asked to wait, for a person. */
function duration(ms: number): string {
	const seconds = Math.ceil(ms / 1000);
	if (seconds < 120) return `${seconds} s`;
	const minutes = Math.floor(seconds / 60);
	if (minutes < 120) return `${minutes} min${seconds % 60 ? ` ${seconds % 60} s` : ''}`;
	return `${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
}
