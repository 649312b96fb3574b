/**
 * The longest a 429's `Retry-After` is waited out. Beyond it the request fails at once: an
 * execution held for longer looks hung to the user, and a service asking for that long is not
 * going to take the request soon.
 */
export const MAX_RETRY_AFTER_MS = 5 * 60_000;

/** `Retry-After` in ms from now: whole seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfter(header: string | string[] | undefined, now: number): number | undefined {
	const value = (Array.isArray(header) ? header[0] : header)?.trim();
	if (!value) return undefined;
	const seconds = Number(value);
	if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
	const date = Date.parse(value);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
