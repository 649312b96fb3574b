import { createHash } from 'node:crypto';
import type { z } from 'zod/v4';

import { createdFrom, expectData, messageIdIn, returned } from './answers';
import type { ClientOptions } from './client-options';
import { sendFailure, type Answer } from './errors';
import { sharedBudget } from './budget';
import type { RequestGuard } from './guard';
import { paginate, type PageOptions, type PageReader } from './pagination';
import { sendWithRetries, type Repeatable, type Sender } from './request';
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
import type { TransportRequest } from './transport';

export type { ClientOptions } from './client-options';

type Call = {
	method: TransportRequest['method'];
	path: string;
	query?: Record<string, string | number | undefined>;
	body?: unknown;
	repeatable: Repeatable;
	/** Overrides the client's lane (a conversation's replies take turns with other conversations). */
	lane?: string;
	/** Stops the request from leaving once its caller lost the work it was for (guard.ts). */
	guard?: RequestGuard;
};

/**
 * A typed client for the messaging-bot service: one method per operation of the spec, with rate
 * limiting and retries. Validation, error mapping and pagination have modules of their own.
 */
export class MessagingBotClient {
	private readonly baseUrl: string;
	private readonly sender: Sender;
	private readonly timeoutMs: number;
	/** Requests sent through this instance, retries included. */
	requestCount = 0;

	constructor(private readonly options: ClientOptions) {
		this.baseUrl = options.baseUrl.replace(/\/+$/, '');
		const rate = options.rateLimit ?? { limit: LIMITS.rateLimit, windowMs: LIMITS.rateWindowMs };
		const budgetId = createHash('sha256')
			.update(`${this.baseUrl}\n${options.apiKey}`)
			.digest('hex');
		this.sender = {
			budget: sharedBudget(budgetId, options.clock, { ...rate, redis: options.sharedThrough }),
			transport: options.transport,
			clock: options.clock,
			maxRetries: options.maxRetries ?? 4,
			backoffMs: options.backoffMs ?? 500,
			random: options.random ?? Math.random,
			priority: options.priority ?? 'bulk',
			lane: options.lane ?? '',
			sent: () => this.requestCount++,
		};
		this.timeoutMs = options.timeoutMs ?? 30_000;
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
	 * (A17). The result is what was sent, then whatever came back. `guard`: see guard.ts.
	 */
	async sendMessage(
		botId: string,
		input: SendMessageInput,
		guard?: RequestGuard,
	): Promise<SentMessage> {
		const id = check(schemas.botId, botId, 'bot_id');
		const body = check(schemas.sendMessage, input);
		const answer = await this.callWithStatus({
			method: 'POST',
			path: `/bots/${encodeURIComponent(id)}/messages`,
			body,
			repeatable: 'only-if-not-processed',
			lane: this.options.priority === 'interactive' ? `${id}/${body.client_id}` : undefined,
			guard,
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
	async updateTags(
		clientId: string,
		change: UpdateTagsInput,
		guard?: RequestGuard,
	): Promise<TagUpdate> {
		const id = check(schemas.clientId, clientId, 'client_id');
		const body = check(schemas.updateTags, change);
		const answer = await this.callWithStatus({
			method: 'PUT',
			path: `/clients/${encodeURIComponent(id)}/tags`,
			body,
			repeatable: 'always',
			guard,
		});
		return { id, tags_added: body.add ?? [], tags_removed: body.remove ?? [], ...returned(answer) };
	}

	async getClientMessages(clientId: string, page: Page = {}): Promise<HistoryMessage[]> {
		const { limit, offset } = check(schemas.page, page);
		return this.history(clientId)(limit, offset);
	}

	/**
	 * `guard`: each page's request is guarded (a history read that decides a send, guard.ts);
	 * `lane`: whose turn the reads take in the request budget (a conversation's, when healing it).
	 */
	iterateClientMessages(
		clientId: string,
		options: PageOptions & { guard?: RequestGuard; lane?: string } = {},
	): AsyncGenerator<HistoryMessage> {
		const { guard, lane, ...pages } = options;
		return paginate('Client: Get Messages', this.history(clientId, guard, lane), pages);
	}

	// ---- plumbing ----

	private history(
		clientId: string,
		guard?: RequestGuard,
		lane?: string,
	): PageReader<HistoryMessage> {
		const id = check(schemas.clientId, clientId, 'client_id');
		const path = `/clients/${encodeURIComponent(id)}/messages`;
		return this.pages(path, {}, messageSchema, 'message history', guard, lane);
	}

	/** Reads one page of a list endpoint. */
	private pages<S extends z.ZodType>(
		path: string,
		query: Record<string, string | undefined>,
		itemSchema: S,
		what: string,
		guard?: RequestGuard,
		lane?: string,
	): PageReader<z.output<S>> {
		return async (limit, offset) => {
			const answer = await this.callWithStatus({
				method: 'GET',
				path,
				query: { ...query, limit, offset },
				repeatable: 'always',
				guard,
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
		return await sendWithRetries(this.sender, request, call, call.guard);
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
