/** Typed errors for the spec's error table, validation, and transport failures. */
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
