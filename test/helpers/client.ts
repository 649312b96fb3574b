/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: node timers, never loaded by n8n */
import { setTimeout as sleep } from 'node:timers/promises';

import { MessagingBotClient, type ClientOptions } from '../../runtime/api';
import { createUndiciTransport } from '../../runtime/api/undici-transport';
import type { RunningEmulator } from '../emulator';

export const realClock = {
	now: () => Date.now(),
	sleep: (ms: number, signal?: AbortSignal) => sleep(ms, undefined, { signal }),
};

/** A client for the emulator over real HTTP, with its own rate budget unless told otherwise. */
export function clientFor(
	emulator: RunningEmulator,
	options: Partial<ClientOptions> & { key?: string } = {},
): MessagingBotClient & { close(): Promise<void> } {
	const apiKey = options.key ?? emulator.apiKey;
	const transport = createUndiciTransport({ apiKey });
	const client = new MessagingBotClient({
		baseUrl: emulator.baseUrl,
		transport,
		clock: realClock,
		apiKey,
		backoffMs: 20,
		...options,
	});
	return Object.assign(client, { close: () => transport.close() });
}
