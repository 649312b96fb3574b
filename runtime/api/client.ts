import { createHash } from 'node:crypto';
import type { z } from 'zod/v4';

import { createdFrom, expectData, messageIdIn, returned } from './answers';
import type { ClientOptions } from './client-options';
import {
	describeTransport,
	interpret,
	MessagingBotError,
	NetworkError,
	RateLimitedError,
	RetryAfterTooLongError,
	sendFailure,
	ServerError,
	unexpected,
	type Answer,
} from './errors';
import { sharedBudget, type RequestBudget } from './budget';
import { paginate, type PageOptions, type PageReader } from './pagination';
import { MAX_RETRY_AFTER_MS, retryAfter } from './retry-after';
import {
	botSchema,
	check,
	clientQuery,
	clientSchema,
	LIMITS,
	messageSchema,
	schemas,
	statsSchema,
	type Activation,
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
	type TagUpdate,
	type UpdateTagsInput,
} from './schemas';
import { TransportError, type TransportRequest } from './transport';

export type { ClientOptions } from './client-options';

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
 * A typed client for the messaging-bot service: one method per operation of the spec, with rate
 * limiting and retries. Validation, error mapping and pagination have modules of their own.
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
		const answer = await this.callWithStatus({
			method: 'GET',
			path: '/bots',
			repeatable: 'always',
		});
		return expectData(answer, botSchema.array(), 'bot list');
	}

	/**
	 * Sends a message in the name of the bot. Any 2xx means the service took it, whatever the body
	 * (A12); it is never re-sent after an answer that leaves it unknown whether the service acted
	 * (A17). The result is what was sent, then whatever came back.
	 */
	async sendMessage(botId: string, input: SendMessageInput): Promise<SentMessage> {
		const id = check(schemas.botId, botId, 'bot_id');
		const body = check(schemas.sendMessage, input);
		const answer = await this.callWithStatus({
			method: 'POST',
			path: `/bots/${encodeURIComponent(id)}/messages`,
			body,
			repeatable: 'only-if-not-processed',
			lane: this.options.priority === 'interactive' ? `${id}/${body.client_id}` : undefined,
		}).catch((error: unknown) => {
			throw sendFailure(error, id, body.client_id);
		});
		const back = returned(answer);
		const messageId = messageIdIn(back);
		return { bot_id: id, ...body, ...back, ...(messageId ? { message_id: messageId } : {}) };
	}

	async getBotStats(botId: string, period: StatsPeriod = {}): Promise<BotStats> {
		const id = check(schemas.botId, botId, 'bot_id');
		const query = check(schemas.statsPeriod, period);
		const answer = await this.callWithStatus({
			method: 'GET',
			path: `/bots/${encodeURIComponent(id)}/stats`,
			query,
			repeatable: 'always',
		});
		return expectData(answer, statsSchema, 'statistics');
	}

	/**
	 * Activating twice leaves the same scenario active, so it is safe to repeat. The spec shows no
	 * response (A14): the ids and the new status, then whatever came back.
	 */
	async activateScenario(botId: string, scenarioId: string): Promise<Activation> {
		const id = check(schemas.botId, botId, 'bot_id');
		const scenario = check(schemas.scenarioId, scenarioId, 'scenario_id');
		const answer = await this.callWithStatus({
			method: 'PUT',
			path: `/bots/${encodeURIComponent(id)}/scenarios/${encodeURIComponent(scenario)}/activate`,
			repeatable: 'always',
		});
		return { bot_id: id, scenario_id: scenario, status: 'active', ...returned(answer) };
	}

	// ---- Client API ----

	async searchClients(filters: ClientFilters = {}, page: Page = {}): Promise<Client[]> {
		const query = clientQuery(check(schemas.clientFilters, filters));
		const { limit, offset } = check(schemas.page, page);
		return this.pages('/clients', query, clientSchema, 'client list')(limit, offset);
	}

	/** Every matching client, fetched in pages of up to 1,000 (the fewest requests). */
	iterateClients(filters: ClientFilters = {}, options: PageOptions = {}): AsyncGenerator<Client> {
		const query = clientQuery(check(schemas.clientFilters, filters));
		const read = this.pages('/clients', query, clientSchema, 'client list');
		return paginate('Client: Get Many', read, options);
	}

	/**
	 * Idempotent on email or phone. `created` tells a new client from an existing one as the
	 * service tells it (A18), and is `null` when its answer does not tell.
	 */
	async createClient(
		input: CreateClientInput,
	): Promise<{ client: Client; created: boolean | null }> {
		const body = check(schemas.createClient, input);
		const answer = await this.callWithStatus({
			method: 'POST',
			path: '/clients',
			body,
			repeatable: 'always',
		});
		return { client: expectData(answer, clientSchema, 'client'), created: createdFrom(answer) };
	}

	async getClient(clientId: string): Promise<Client> {
		const id = check(schemas.clientId, clientId, 'client_id');
		const answer = await this.callWithStatus({
			method: 'GET',
			path: `/clients/${encodeURIComponent(id)}`,
			repeatable: 'always',
		});
		return expectData(answer, clientSchema, 'client');
	}

	/**
	 * Adding a present tag or removing an absent one changes nothing, so this is safe to repeat.
	 * The spec shows no response (A21): the id and the change asked for, then whatever came back.
	 */
	async updateTags(clientId: string, change: UpdateTagsInput): Promise<TagUpdate> {
		const id = check(schemas.clientId, clientId, 'client_id');
		const body = check(schemas.updateTags, change);
		const answer = await this.callWithStatus({
			method: 'PUT',
			path: `/clients/${encodeURIComponent(id)}/tags`,
			body,
			repeatable: 'always',
		});
		return { id, tags_added: body.add ?? [], tags_removed: body.remove ?? [], ...returned(answer) };
	}

	async getClientMessages(clientId: string, page: Page = {}): Promise<HistoryMessage[]> {
		const { limit, offset } = check(schemas.page, page);
		return this.history(clientId)(limit, offset);
	}

	/** `lane`: whose turn the reads take in the request budget (a conversation's, when healing it). */
	iterateClientMessages(
		clientId: string,
		options: PageOptions & { lane?: string } = {},
	): AsyncGenerator<HistoryMessage> {
		return paginate('Client: Get Messages', this.history(clientId, options.lane), options);
	}

	// ---- plumbing ----

	private history(clientId: string, lane?: string): PageReader<HistoryMessage> {
		const id = check(schemas.clientId, clientId, 'client_id');
		const path = `/clients/${encodeURIComponent(id)}/messages`;
		return this.pages(path, {}, messageSchema, 'message history', lane);
	}

	/** Reads one page of a list endpoint. */
	private pages<S extends z.ZodType>(
		path: string,
		query: Record<string, string | undefined>,
		itemSchema: S,
		what: string,
		lane?: string,
	): PageReader<z.output<S>> {
		return async (limit, offset) => {
			const answer = await this.callWithStatus({
				method: 'GET',
				path,
				query: { ...query, limit, offset },
				repeatable: 'always',
				...(lane === undefined ? {} : { lane }),
			});
			return expectData(answer, itemSchema.array(), what) as Array<z.output<S>>;
		};
	}

	private async callWithStatus(call: Call): Promise<Answer> {
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
				if (outcome.ok) return outcome.answer;
				error = outcome.error;
				retryAfterMs = retryAfter(response.headers['retry-after'], this.options.clock.now());
			} catch (e) {
				error =
					e instanceof TransportError
						? new NetworkError(describeTransport(e), e.kind, e.sent)
						: unexpected(e);
			}
			error.attempts = attempt;
			if (error instanceof RateLimitedError && (retryAfterMs ?? 0) > MAX_RETRY_AFTER_MS)
				throw new RetryAfterTooLongError(error, retryAfterMs as number, MAX_RETRY_AFTER_MS);
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
