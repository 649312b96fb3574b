/**
 * Time as the client sees it. Injected because the runtime runs inside n8n, where nodes must use
 * n8n's `sleep`, and in plain Node, where the CLI uses timers; tests can pass a fake.
 */
export interface Clock {
	now(): number;
	sleep(ms: number): Promise<void>;
}
