/* eslint-disable @n8n/community-nodes/require-node-api-error -- test tooling: a server of a test's own, never loaded by n8n */
import { freePort } from '../../scripts/lib/n8n-process';

/**
 * Starts a test's own server on a port found free, and on another when that one was taken before
 * the server bound it (`taken` tells that failure from the others): another test's own server,
 * restarting on its port after an outage, can take it in between. Up to five ports.
 */
export async function onFreePort(
	start: (port: number) => Promise<void> | void,
	taken: (error: unknown) => boolean,
): Promise<void> {
	for (let tries = 1; ; tries++) {
		try {
			await start(await freePort());
			return;
		} catch (error) {
			if (tries === 5 || !taken(error)) throw error;
		}
	}
}
