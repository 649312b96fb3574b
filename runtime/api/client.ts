import { createHash } from 'node:crypto';
import type { z } from 'zod/v4';

import type { Clock } from './clock';
import {
	BadRequestError,
	BotInactiveError,
	InvalidClientIdError,
	MessagingBotError,
	NetworkError,
	NotFoundError,
	RateLimitedError,
	ResponseFormatError,
	SendOutcomeUnknownError,
	ServerError,
	UnauthorizedError,
	type FieldIssue,
} from './errors';
import { sharedBudget, type Priority, type RequestBudget } from './budget';
import type { BudgetSettings } from './budget/registry';
import {
	activationSchema,
	botSchema,
	check,
	clientSchema,
	LIMITS,
	messageSchema,
	schemas,
	sentMessageSchema,
	statsSchema,
	type Bot,
	type BotStats,
	type Client,
	type ClientFilters,
	type CreateClientInput,
	type HistoryMessage,
	type Page,
	type SendMessageInput,
	type SentMessage,
	type StatsPeriod,
	type UpdateTagsInput,
} from './schemas';
import { TransportError, type Transport, type TransportRequest } from './transport';

export interface ClientOptions {
	/** Ends in /v1. */
	baseUrl: string;
	transport: Transport;
	clock: Clock;
	/** Identifies the key's shared request budget; never sent anywhere, only hashed. */
	apiKey: string;
	/** Retries after the first attempt (default 4). */
	maxRetries?: number;
	/** First backoff step in ms (default 500), doubled each retry, with full jitter, capped at 30 s. */
	backoffMs?: number;
	timeoutMs?: number;
	/** Override the service's limit (default 100 per 60 s); tests scale the window. */
	rateLimit?: { limit: number; windowMs: number };
	/** Share the key's budget with every process reaching this Redis (queue mode's workers). */
	sharedThrough?: BudgetSettings['redis'];
	/**
	 * Interactive work (a bot's reply, a picker) is served before bulk work on the same key
	 * (default bulk). Interactive replies take turns by conversation; everything else by `lane`.
	 */
	priority?: Priority;
	/** Whose turn this client's requests are, among callers of the same priority (e.g. an execution). */
	lane?: string;
	/** Uniform random in [0, 1), injectable for tests. */
	random?: () => number;
}

/** Whether a request can be repeated after an ambiguous failure (5xx, timeout, reset). */
type Repeatable = 'always' | 'only-if-not-processed';

type Call = {
	method: TransportRequest['method'];
	path: string;
	query?: Record<string, string | number | undefined>;
	body?: unknown;
	repeatable: Repeatable;
	/** Overrides the client's lane (a conversation's replies take turns with other conversations). */
	lane?: string;
};

/**
 * A typed client for the messaging-bot service: one method per operation of the spec.
 * Rate limiting, retries, pagination, validation and error mapping live here, once.
 */
export class MessagingBotClient {
	private readonly baseUrl: string;
	private readonly budget: RequestBudget;
	private readonly maxRetries: number;
	private readonly backoffMs: number;
	private readonly timeoutMs: number;
	private readonly random: () => number;
	/** Requests sent through this instance, retries included. */
	requestCount = 0;

	constructor(private readonly options: ClientOptions) {
		this.baseUrl = options.baseUrl.replace(/\/+$/, '');
		const rate = options.rateLimit ?? { limit: LIMITS.rateLimit, windowMs: LIMITS.rateWindowMs };
		const budgetId = createHash('sha256')
			.update(`${this.baseUrl}\n${options.apiKey}`)
			.digest('hex');
		this.budget = sharedBudget(budgetId, options.clock, {
			...rate,
			redis: options.sharedThrough,
		});
		this.maxRetries = options.maxRetries ?? 4;
		this.backoffMs = options.backoffMs ?? 500;
		this.timeoutMs = options.timeoutMs ?? 30_000;
		this.random = options.random ?? Math.random;
	}

	// ---- Bot API ----

	async listBots(): Promise<Bot[]> {
		const data = await this.call({ method: 'GET', path: '/bots', repeatable: 'always' });
		return parseData(data, botSchema.array(), 'bot list');
	}

	/**
	 * Sends a message in the name of the bot. Never re-sent after an answer that leaves it unknown
	 * whether the service acted (docs/service-assumptions.md A17).
	 */
	async sendMessage(botId: string, input: SendMessageInput): Promise<SentMessage> {
		const id = check(schemas.botId, botId, 'bot_id');
		const body = check(schemas.sendMessage, input);
		const outcome = await this.call({
			method: 'POST',
			path: `/bots/${encodeURIComponent(id)}/messages`,
			body,
			repeatable: 'only-if-not-processed',
			lane: this.options.priority === 'interactive' ? `${id}/${body.client_id}` : undefined,
		}).then(
			(data) => ({ data }),
			(error: unknown) => ({ error }),
		);
		if ('error' in outcome) {
			// Any 2xx means the service took the message, whatever the body says (A17): sending
			// it again would send it twice.
			if (acceptedAnyway(outcome.error)) return {};
			throw sendFailure(outcome.error, id, body.client_id);
		}
		const sent = sentMessageSchema.safeParse(outcome.data ?? {});
		return sent.success ? sent.data : {};
	}

	async getBotStats(botId: string, period: StatsPeriod = {}): Promise<BotStats> {
		const id = check(schemas.botId, botId, 'bot_id');
		const query = check(schemas.statsPeriod, period);
		const data = await this.call({
			method: 'GET',
			path: `/bots/${encodeURIComponent(id)}/stats`,
			query,
			repeatable: 'always',
		});
		return parseData(data, statsSchema, 'statistics');
	}

	/** Activating twice leaves the same scenario active, so it is safe to repeat. */
	async activateScenario(botId: string, scenarioId: string): Promise<Record<string, unknown>> {
		const id = check(schemas.botId, botId, 'bot_id');
		const scenario = check(schemas.scenarioId, scenarioId, 'scenario_id');
		const data = await this.call({
			method: 'PUT',
			path: `/bots/${encodeURIComponent(id)}/scenarios/${encodeURIComponent(scenario)}/activate`,
			repeatable: 'always',
		});
		const parsed = parseData(data, activationSchema, 'activation');
		return { bot_id: id, scenario_id: scenario, ...(parsed ?? {}) };
	}

	// ---- Client API ----

	async searchClients(filters: ClientFilters = {}, page: Page = {}): Promise<Client[]> {
		const query = clientQuery(check(schemas.clientFilters, filters));
		const { limit, offset } = check(schemas.page, page);
		const data = await this.call({
			method: 'GET',
			path: '/clients',
			query: { ...query, limit, offset },
			repeatable: 'always',
		});
		return parseData(data, clientSchema.array(), 'client list');
	}

	/** Every matching client, fetched in pages of up to 1,000 (the fewest requests). */
	iterateClients(
		filters: ClientFilters = {},
		options: { max?: number; pageSize?: number } = {},
	): AsyncGenerator<Client> {
		const query = clientQuery(check(schemas.clientFilters, filters));
		return this.paginate('/clients', query, clientSchema, 'client list', options);
	}

	/** Idempotent on email or phone: `created` tells a new client from an existing one (A18). */
	async createClient(input: CreateClientInput): Promise<{ client: Client; created: boolean }> {
		const body = check(schemas.createClient, input);
		const { data, status } = await this.callWithStatus({
			method: 'POST',
			path: '/clients',
			body,
			repeatable: 'always',
		});
		return { client: parseData(data, clientSchema, 'client'), created: status === 201 };
	}

	async getClient(clientId: string): Promise<Client> {
		const id = check(schemas.clientId, clientId, 'client_id');
		const data = await this.call({
			method: 'GET',
			path: `/clients/${encodeURIComponent(id)}`,
			repeatable: 'always',
		});
		return parseData(data, clientSchema, 'client');
	}

	/** Adding a present tag or removing an absent one changes nothing, so this is safe to repeat. */
	async updateTags(clientId: string, change: UpdateTagsInput): Promise<Client> {
		const id = check(schemas.clientId, clientId, 'client_id');
		const body = check(schemas.updateTags, change);
		const data = await this.call({
			method: 'PUT',
			path: `/clients/${encodeURIComponent(id)}/tags`,
			body,
			repeatable: 'always',
		});
		return parseData(data, clientSchema, 'client');
	}

	async getClientMessages(clientId: string, page: Page = {}): Promise<HistoryMessage[]> {
		const id = check(schemas.clientId, clientId, 'client_id');
		const { limit, offset } = check(schemas.page, page);
		const data = await this.call({
			method: 'GET',
			path: `/clients/${encodeURIComponent(id)}/messages`,
			query: { limit, offset },
			repeatable: 'always',
		});
		return parseData(data, messageSchema.array(), 'message history');
	}

	iterateClientMessages(
		clientId: string,
		options: { max?: number; pageSize?: number } = {},
	): AsyncGenerator<HistoryMessage> {
		const id = check(schemas.clientId, clientId, 'client_id');
		return this.paginate(
			`/clients/${encodeURIComponent(id)}/messages`,
			{},
			messageSchema,
			'message history',
			options,
		);
	}

	// ---- plumbing ----

	private async *paginate<S extends z.ZodType>(
		path: string,
		query: Record<string, string | undefined>,
		itemSchema: S,
		what: string,
		options: { max?: number; pageSize?: number },
	): AsyncGenerator<z.output<S>> {
		const pageSize = check(schemas.page, { limit: options.pageSize ?? LIMITS.pageMax })
			.limit as number;
		const max = options.max ?? Number.POSITIVE_INFINITY;
		if (options.max !== undefined) check(schemas.page.shape.offset, options.max, 'limit');
		let offset = 0;
		let yielded = 0;
		while (yielded < max) {
			// Ask only for what is still wanted, so a Limit of 120 costs one request, not 1,000 rows.
			const limit = Math.min(pageSize, max - yielded);
			const data = await this.call({
				method: 'GET',
				path,
				query: { ...query, limit, offset },
				repeatable: 'always',
			});
			const items = parseData(data, itemSchema.array(), what) as Array<z.output<S>>;
			for (const item of items) {
				yield item;
				if (++yielded >= max) return;
			}
			if (items.length < limit) return;
			offset += items.length;
		}
	}

	private async call(call: Call): Promise<unknown> {
		return (await this.callWithStatus(call)).data;
	}

	private async callWithStatus(call: Call): Promise<{ data: unknown; status: number }> {
		const url = this.url(call.path, call.query);
		const request: TransportRequest = {
			method: call.method,
			url,
			headers: { Accept: 'application/json' },
			timeoutMs: this.timeoutMs,
		};
		if (call.body !== undefined) {
			request.body = JSON.stringify(call.body);
			request.headers['Content-Type'] = 'application/json';
		}
		let attempt = 0;
		for (;;) {
			attempt++;
			const slot = await this.budget.acquire({
				priority: this.options.priority ?? 'bulk',
				lane: call.lane ?? this.options.lane ?? '',
			});
			this.requestCount++;
			let error: MessagingBotError;
			let retryAfterMs: number | undefined;
			try {
				const response = await this.options.transport.request(request).finally(() => slot.settle());
				const outcome = interpret(response.status, response.body);
				if (outcome.ok) return { data: outcome.data, status: response.status };
				error = outcome.error;
				retryAfterMs = retryAfter(response.headers['retry-after'], this.options.clock.now());
			} catch (e) {
				error =
					e instanceof TransportError
						? new NetworkError(describeTransport(e), e.kind, e.sent)
						: unexpected(e);
			}
			error.attempts = attempt;
			const retriable =
				error instanceof RateLimitedError ||
				(error instanceof NetworkError && !error.mayHaveReachedService) ||
				(call.repeatable === 'always' &&
					(error instanceof ServerError || error instanceof NetworkError));
			if (!retriable || attempt > this.maxRetries) {
				if (attempt > 1) error.message += ` (gave up after ${attempt} attempts)`;
				throw error;
			}
			const backoff = Math.min(30_000, this.backoffMs * 2 ** (attempt - 1)) * this.random();
			const wait = Math.max(retryAfterMs ?? 0, backoff);
			if (error instanceof RateLimitedError) await this.budget.block(wait);
			await this.options.clock.sleep(wait);
		}
	}

	private url(path: string, query?: Record<string, string | number | undefined>): string {
		const params = new URLSearchParams();
		for (const [key, value] of Object.entries(query ?? {})) {
			if (value !== undefined) params.set(key, String(value));
		}
		const qs = params.toString();
		return `${this.baseUrl}${path}${qs ? `?${qs}` : ''}`;
	}
}

/** A 2xx whose body could not be read (not JSON): the request succeeded all the same. */
function acceptedAnyway(error: unknown): boolean {
	return error instanceof ResponseFormatError && error.status >= 200 && error.status < 300;
}

/** After a send failed: was it certainly not sent, or is the outcome unknown? */
function sendFailure(error: unknown, botId: string, clientId: string): unknown {
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

function clientQuery(
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

type Outcome = { ok: true; data: unknown } | { ok: false; error: MessagingBotError };

/** Reads the `{success, data}` envelope, or maps the failure to the spec's error table. */
export function interpret(status: number, text: string): Outcome {
	let body: unknown;
	try {
		body = text ? JSON.parse(text) : undefined;
	} catch {
		body = undefined;
	}
	const envelope = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
	if (status >= 200 && status < 300) {
		if (body === undefined && text) {
			return {
				ok: false,
				error: new ResponseFormatError(
					`The service answered HTTP ${status} with a body that is not JSON`,
					status,
				),
			};
		}
		if (envelope.success === false) {
			const message = serviceMessage(envelope) ?? 'The service reported a failure';
			return { ok: false, error: new BadRequestError(message, status, message) };
		}
		return { ok: true, data: envelope.data };
	}
	const message = serviceMessage(envelope);
	const code =
		typeof (envelope.error as { code?: unknown })?.code === 'string'
			? (envelope.error as { code: string }).code
			: undefined;
	return { ok: false, error: errorFor(status, message, code, fieldDetails(envelope)) };
}

function errorFor(
	status: number,
	message: string | undefined,
	code: string | undefined,
	details: FieldIssue[],
): MessagingBotError {
	const text = message ?? defaultMessage(status);
	if (status === 400 && /invalid client_id/i.test(text))
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

function defaultMessage(status: number): string {
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

/** The service's message, whatever shape the error body takes (A2). */
function serviceMessage(body: Record<string, unknown>): string | undefined {
	const error = body.error;
	if (typeof error === 'string') return error;
	if (
		error &&
		typeof error === 'object' &&
		typeof (error as { message?: unknown }).message === 'string'
	) {
		return (error as { message: string }).message;
	}
	return typeof body.message === 'string' ? body.message : undefined;
}

function fieldDetails(body: Record<string, unknown>): FieldIssue[] {
	const details = (body.error as { details?: unknown })?.details;
	if (!Array.isArray(details)) return [];
	return details.filter(
		(d): d is FieldIssue => !!d && typeof d.field === 'string' && typeof d.rule === 'string',
	);
}

function retryAfter(header: string | string[] | undefined, now: number): number | undefined {
	const value = Array.isArray(header) ? header[0] : header;
	if (!value) return undefined;
	const seconds = Number(value);
	if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
	const date = Date.parse(value);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function describeTransport(e: TransportError): string {
	if (e.kind === 'connect') return `Could not connect to the service (${e.code ?? e.message})`;
	if (e.kind === 'timeout') return 'The service did not answer in time';
	return `The connection to the service failed (${e.code ?? e.message})`;
}

function unexpected(e: unknown): MessagingBotError {
	const error = new NetworkError(
		`Request failed: ${(e as Error)?.message ?? String(e)}`,
		'network',
		true,
	);
	return error;
}

function parseData<S extends z.ZodType>(data: unknown, schema: S, what: string): z.output<S> {
	const result = schema.safeParse(data);
	if (result.success) return result.data;
	const first = result.error.issues[0];
	throw new ResponseFormatError(
		`The service's ${what} is not in the expected shape (${first.path.join('.') || 'data'}: ${first.message})`,
		200,
	);
}
