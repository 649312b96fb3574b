import type { Priority } from './budget';
import type { BudgetSettings } from './budget/registry';
import type { Clock } from './clock';
import type { Transport } from './transport';

/** How a `MessagingBotClient` reaches the service, and how hard it tries. */
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
	/** Whose turn this client's requests are among callers of the same priority (an execution). */
	lane?: string;
	/** Uniform random in [0, 1), injectable for tests. */
	random?: () => number;
}
