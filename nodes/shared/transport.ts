import {
	sleep,
	type IExecuteFunctions,
	type IHttpRequestOptions,
	type ILoadOptionsFunctions,
	NodeOperationError,
} from 'n8n-workflow';

import type { RedisOptions } from 'ioredis';

import { MessagingBotClient, normaliseBaseUrl, type Priority } from '../../runtime/api';
import { redisOptions, type RedisCredential } from '../../runtime/stores/redis-options';
import { classifyNetworkError, type Transport } from '../../runtime/api/transport';
import { untilFenced } from '../../runtime/api/guard';
import { redisCredentialUnder, type RedisFieldsUnder } from '../../credentials/redisFields';

type Context = IExecuteFunctions | ILoadOptionsFunctions;

/** The API credential the client was built with, handed to n8n's request helper with its id. */
type CredentialInUse = { ref?: { id: string; name: string }; data: ApiCredential };

/**
 * A transport on n8n's request helper: n8n's proxy settings, credential injection and logging.
 * The credential this execution read already is handed to n8n, which would otherwise read and
 * decrypt it from its database again for every request.
 */
function n8nTransport(ctx: Context, credential?: CredentialInUse): Transport {
	const given = credential?.ref && {
		...credential.ref,
		type: 'messagingBotApi',
		data: credential.data,
	};
	return {
		async request(req) {
			const options: IHttpRequestOptions = {
				method: req.method,
				url: req.url,
				headers: req.headers,
				body: req.body,
				timeout: req.timeoutMs,
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				json: false,
				encoding: 'text',
				...(req.signal ? { abortSignal: req.signal } : {}),
			};
			let response: {
				statusCode: number;
				headers: Record<string, string | string[] | undefined>;
				body: unknown;
			};
			try {
				// n8n sets the execution's cancel signal in place of the request's own, which then
				// cannot cut the request off: the caller (a worker that lost its lease) stops waiting.
				response = await untilFenced(
					ctx.helpers.httpRequestWithAuthentication.call(
						ctx,
						'messagingBotApi',
						options,
						given ? { credentialsDecrypted: given } : undefined,
					),
					req.signal,
				);
			} catch (error) {
				throw classifyNetworkError(error);
			}
			const body = response.body;
			return {
				status: response.statusCode,
				headers: response.headers,
				body:
					typeof body === 'string'
						? body
						: body === undefined || body === null
							? ''
							: JSON.stringify(body),
			};
		},
	};
}

export const n8nClock = {
	now: () => Date.now(),
	sleep: async (ms: number, signal?: AbortSignal) => await sleep(ms, signal),
};

type ApiCredential = RedisFieldsUnder<'redis'> & {
	baseUrl: string;
	apiKey: string;
	rateLimit?: number;
	rateWindowSeconds?: number;
	/** `redis`: through the Redis typed in this credential (credentials saved before `redisCredential`). */
	budgetScope?: 'process' | 'redisCredential' | 'redis';
};

/**
 * The Redis the credential shares its request budget through, if it does: the node's Messaging
 * Bot Redis credential (the one its Storage uses), or, in a credential saved before that, the
 * Redis typed in it.
 */
async function sharedThrough(ctx: Context, c: ApiCredential): Promise<RedisOptions | undefined> {
	if (c.budgetScope === 'redis') return redisOptions(redisCredentialUnder('redis', c));
	if (c.budgetScope !== 'redisCredential') return undefined;
	const redis = await ctx.getCredentials<RedisCredential>('messagingBotRedisApi').catch(() => {
		throw new NodeOperationError(
			ctx.getNode(),
			'Messaging Bot API credential: Request Budget is "Shared Through Redis", and this node has no Messaging Bot Redis credential',
			{
				description:
					'Choose the Messaging Bot Redis credential on this node (on a Scenario or Trigger node: set Storage to Redis), or set Request Budget to "Counted in This Process".',
			},
		);
	});
	return redisOptions(redis);
}

/**
 * The API client for this execution, sharing the key's request budget with every other one.
 * Interactive work (a bot's reply, a picker in the editor) goes before bulk work on the key.
 */
export async function clientFor(
	ctx: Context,
	priority: Priority = 'bulk',
): Promise<MessagingBotClient> {
	const credentials = await ctx.getCredentials<ApiCredential>('messagingBotApi');
	const node = ctx.getNode().credentials?.messagingBotApi;
	const ref = node?.id ? { id: node.id, name: node.name } : undefined;
	const base = normaliseBaseUrl(credentials.baseUrl ?? '');
	if (base.error) {
		throw new NodeOperationError(ctx.getNode(), `Messaging Bot API credential: ${base.error}`, {
			description: 'Open the credential and correct the Base URL.',
		});
	}
	return new MessagingBotClient({
		baseUrl: base.url,
		transport: n8nTransport(ctx, { ref, data: credentials }),
		clock: n8nClock,
		apiKey: credentials.apiKey,
		rateLimit: {
			limit: Math.max(1, Math.floor(credentials.rateLimit ?? 100)),
			windowMs: Math.max(100, Math.round((credentials.rateWindowSeconds ?? 60) * 1000)),
		},
		sharedThrough: await sharedThrough(ctx, credentials),
		priority,
		// Bulk work takes turns by execution, so one big job never starves another.
		lane: 'getExecutionId' in ctx ? ctx.getExecutionId() : undefined,
	});
}
