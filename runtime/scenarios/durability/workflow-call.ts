import type { CallResult, WorkflowEffect } from '../machine/setup';
import type { CancellableWait } from './lease-keeper';

/**
 * Workflow steps: a state's "call" asks for an n8n workflow through this port, and the outcome is
 * fed back to the machine as a RESULT event. The runtime knows no n8n: the Scenario node
 * implements the port with n8n's executeWorkflow, the CLI with a fixtures file, tests with
 * functions.
 */
export interface WorkflowPort {
	/**
	 * Runs the workflow mapped to `name` with one input item; resolves with the first item's JSON,
	 * or undefined when it returned none. Rejects when it failed.
	 */
	call(
		name: string,
		inputs: Record<string, string>,
		options: { timeoutMs: number },
	): Promise<unknown>;
}

/** Runs a call within its time limit. Never throws: a failure is an outcome like any other. */
export async function performCall(
	port: WorkflowPort | undefined,
	effect: WorkflowEffect,
	/** Real time for the call's limit (n8n's sleep with a signal); without it, only the port's own. */
	wait?: CancellableWait,
): Promise<CallResult> {
	if (!port) return { outcome: 'failure', error: 'No workflows are connected to this scenario' };
	const running = port.call(effect.workflow, effect.inputs, { timeoutMs: effect.timeoutMs });
	try {
		const answer = wait ? await withinTime(running, effect.timeoutMs, wait) : await running;
		if (answer === TIMED_OUT) {
			running.catch(() => undefined);
			return {
				outcome: 'timeout',
				error: `The workflow "${effect.workflow}" did not answer within ${effect.timeoutMs / 1000} s`,
			};
		}
		if (answer === undefined || answer === null) return { outcome: 'empty' };
		return { outcome: 'success', data: answer };
	} catch (error) {
		return { outcome: 'failure', error: error instanceof Error ? error.message : String(error) };
	}
}

const TIMED_OUT = Symbol('timed out');

async function withinTime<T>(
	work: Promise<T>,
	ms: number,
	wait: CancellableWait,
): Promise<T | typeof TIMED_OUT> {
	// The wait is cancelled when the call ends, so no timer outlives it.
	const done = new AbortController();
	const timedOut = (): typeof TIMED_OUT => TIMED_OUT;
	const limit = wait(ms, done.signal).then(timedOut, timedOut);
	try {
		return await Promise.race([work, limit]);
	} finally {
		done.abort();
	}
}

/** The outcome of a call whose worker stopped before writing it: it is never made again. */
export const LOST_CALL: CallResult = {
	outcome: 'failure',
	error:
		'The worker calling this workflow stopped before recording the result; it was not called again',
};
