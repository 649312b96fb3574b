/**
 * Time as the client sees it. Injected because the runtime runs inside n8n, where nodes must use
 * n8n's `sleep`, and in plain Node, where the CLI uses timers; tests can pass a fake.
 */
export interface Clock {
	now(): number;
	/** `signal`: the sleep may end early (then resolve or reject) once it fires. */
	sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** A message's or history item's ISO 8601 time in ms since the epoch; NaN when absent or unreadable. */
export const msOf = (timestamp: string | undefined): number =>
	typeof timestamp === 'string' ? Date.parse(timestamp) : Number.NaN;
