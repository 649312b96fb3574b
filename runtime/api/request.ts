import type { RequestBudget } from './budget';
import type { Priority } from './budget/types';
import type { Clock } from './clock';
import {
	describeTransport,
	interpret,
	MessagingBotError,
	NetworkError,
	RateLimitedError,
	RetryAfterTooLongError,
	ServerError,
	unexpected,
	type Answer,
} from './errors';
import { checkGuard, fencedBy, sleepUnlessFenced, type RequestGuard } from './guard';
import { MAX_RETRY_AFTER_MS, retryAfter } from './retry-after';
import { TransportError, type Transport, type TransportRequest } from './transport';

/** Whether a request can be repeated after an ambiguous failure (5xx, timeout, reset). */
export type Repeatable = 'always' | 'only-if-not-processed';

/** How one client sends: its budget, transport, clock and retry settings. */
export interface Sender {
	budget: RequestBudget;
	transport: Transport;
	clock: Clock;
	maxRetries: number;
	backoffMs: number;
	random: () => number;
	priority: Priority;
	lane: string;
	/** Called for every request that leaves, retries included. */
	sent(): void;
}

/**
 * Sends one request through the key's budget, retrying what is safe to retry. `guard` is asked
 * right before each attempt leaves, after the budget's wait and any Retry-After or backoff, and
 * its signal cancels those waits and the request in flight.
 */
export async function sendWithRetries(
	sender: Sender,
	request: TransportRequest,
	call: { repeatable: Repeatable; lane?: string },
	guard?: RequestGuard,
): Promise<Answer> {
	for (let attempt = 1; ; attempt++) {
		const failed = await attemptOnce(sender, request, call.lane, guard);
		if ('answer' in failed) return failed.answer;
		const { error, retryAfterMs } = failed;
		error.attempts = attempt;
		if (error instanceof RateLimitedError && (retryAfterMs ?? 0) > MAX_RETRY_AFTER_MS)
			throw new RetryAfterTooLongError(error, retryAfterMs as number, MAX_RETRY_AFTER_MS);
		const retriable =
			error instanceof RateLimitedError ||
			(error instanceof NetworkError && !error.mayHaveReachedService) ||
			(call.repeatable === 'always' &&
				(error instanceof ServerError || error instanceof NetworkError));
		if (!retriable || attempt > sender.maxRetries) {
			if (attempt > 1) error.message += ` (gave up after ${attempt} attempts)`;
			throw error;
		}
		const backoff = Math.min(30_000, sender.backoffMs * 2 ** (attempt - 1)) * sender.random();
		const wait = Math.max(retryAfterMs ?? 0, backoff);
		if (error instanceof RateLimitedError) await sender.budget.block(wait);
		await sleepUnlessFenced(sender.clock, wait, guard?.signal);
	}
}

type Attempt = { answer: Answer } | { error: MessagingBotError; retryAfterMs?: number };

/** One attempt: a budget slot, the guard's last word, the request. Throws only when fenced. */
async function attemptOnce(
	sender: Sender,
	request: TransportRequest,
	lane: string | undefined,
	guard: RequestGuard | undefined,
): Promise<Attempt> {
	const slot = await sender.budget.acquire({
		priority: sender.priority,
		lane: lane ?? sender.lane,
		...(guard?.signal ? { signal: guard.signal } : {}),
	});
	let cleared = false;
	try {
		// The last check before the request leaves: nothing waits between it and the send.
		await checkGuard(guard);
		cleared = true;
	} finally {
		// Refused: the slot goes unused, and counts from now as if it had been sent.
		if (!cleared) slot.settle();
	}
	sender.sent();
	try {
		const signal = guard?.signal;
		const response = await sender.transport
			.request(signal ? { ...request, signal } : request)
			.finally(() => slot.settle());
		const outcome = interpret(response.status, response.body);
		if (outcome.ok) return { answer: outcome.answer };
		const retryAfterMs = retryAfter(response.headers['retry-after'], sender.clock.now());
		return { error: outcome.error, retryAfterMs };
	} catch (e) {
		// Cut off by the guard: whoever holds the work now reads what became of it.
		if (guard?.signal?.aborted) throw fencedBy(guard.signal);
		const error =
			e instanceof TransportError
				? new NetworkError(describeTransport(e), e.kind, e.sent)
				: unexpected(e);
		return { error };
	}
}
