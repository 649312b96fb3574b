import type { Clock } from './clock';
import { MessagingBotError } from './errors';

/**
 * What lets the caller of a request stop it from leaving: a worker performing a leased effect
 * that lost its lease (another worker took it over) must send nothing. `check` runs right before
 * the request leaves, after every wait (the request budget, a 429's Retry-After, a backoff);
 * `signal` cuts those waits short, and the request itself, as soon as the lease is known lost.
 */
export interface RequestGuard {
	signal?: AbortSignal;
	/** Resolves when the request may leave; rejects (a `FencedError`) when it must not. */
	check?: () => Promise<void>;
}

/**
 * The request was not sent, or was cut off in flight, because its caller no longer holds the
 * work it was for; whoever holds it now decides what to do.
 */
export class FencedError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'FencedError';
	}
}

/**
 * The guard could not say whether the request may leave (its check failed: the store that keeps
 * the lease out of reach). Nothing left, certainly: the work is to be tried again, not doubted.
 */
class GuardUnconfirmedError extends MessagingBotError {
	constructor(readonly cause: unknown) {
		const why = cause instanceof Error ? cause.message : String(cause);
		super(
			`Not sent yet: this worker could not confirm it still holds this action (${why}); it is tried again`,
			0,
		);
	}
}

/** The guard's signal has fired: throws its reason (a `FencedError`). */
function throwIfFenced(guard: RequestGuard | undefined): void {
	const signal = guard?.signal;
	if (signal?.aborted) throw fencedBy(signal);
}

/** The error a fired signal stands for. */
export function fencedBy(signal: AbortSignal): Error {
	const reason: unknown = signal.reason;
	return reason instanceof Error ? reason : new FencedError(String(reason));
}

/** Runs the guard's checks: its signal, then its own check. */
export async function checkGuard(guard: RequestGuard | undefined): Promise<void> {
	throwIfFenced(guard);
	const failed = await guard?.check?.().then(
		() => undefined,
		(error: unknown) => ({ error }),
	);
	throwIfFenced(guard);
	if (failed === undefined) return;
	throw failed.error instanceof FencedError
		? failed.error
		: new GuardUnconfirmedError(failed.error);
}

/**
 * `work`, or a rejection with the signal's reason as soon as it fires: the caller stops waiting on
 * work that cannot itself be cut (its later failure, if any, is left unheard).
 */
export async function untilFenced<T>(
	work: Promise<T>,
	signal: AbortSignal | undefined,
): Promise<T> {
	if (!signal) return await work;
	// Unheard once the signal has won.
	work.catch(() => undefined);
	if (signal.aborted) throw fencedBy(signal);
	let onAbort = (): void => undefined;
	const aborted = new Promise<never>((_, reject) => {
		onAbort = () => reject(fencedBy(signal));
		signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		return await Promise.race([work, aborted]);
	} finally {
		signal.removeEventListener('abort', onAbort);
	}
}

/**
 * Sleeps on `clock`, or rejects as soon as `signal` fires. The clock is given the signal too, so
 * n8n's sleep drops its timer; a clock that ignores it still lets the caller go at once.
 */
export async function sleepUnlessFenced(
	clock: Pick<Clock, 'sleep'>,
	ms: number,
	signal: AbortSignal | undefined,
): Promise<void> {
	if (signal?.aborted) throw fencedBy(signal);
	await untilFenced(clock.sleep(ms, signal), signal);
	throwIfFenced({ signal });
}
