import type { CancellableWait } from '../durability/lease-keeper';

/**
 * A cancellable wait on Node's timers, for the CLI, tests and benchmarks. Inside n8n the Scenario
 * node passes n8n's `sleep` with a signal instead, so the node carries no timers of its own.
 */
export const timerWait: CancellableWait = async (ms, signal) =>
	await new Promise<void>((resolve) => {
		// eslint-disable-next-line @n8n/community-nodes/no-restricted-globals -- outside n8n only (CLI, tests, benchmarks)
		const timer = setTimeout(resolve, ms);
		signal.addEventListener(
			'abort',
			() => {
				// eslint-disable-next-line @n8n/community-nodes/no-restricted-globals -- see above
				clearTimeout(timer);
				resolve();
			},
			{ once: true },
		);
	});
