import { FencedError, type RequestGuard } from '../../api/guard';
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
	 * or undefined when it returned none. Rejects when it failed. `signal`: the caller lost its
	 * lease on the call and stops waiting for it (a port that can stop the workflow does).
	 */
	call(
		name: string,
		inputs: Record<string, string>,
		options: { timeoutMs: number; signal?: AbortSignal },
	): Promise<unknown>;
}

/**
 * Runs a call within its time limit, once the caller has checked its lease (perform-effect.ts).
 * Never throws: a failure is an outcome like any other. 'fenced': the lease on it was lost while
 * it ran (nothing is recorded).
 */
export async function performCall(
	port: WorkflowPort | undefined,
	effect: WorkflowEffect,
	/** Real time for the call's limit (n8n's sleep with a signal); without it, only the port's own. */
	wait?: CancellableWait,
	fence?: RequestGuard,
): Promise<CallResult | 'fenced'> {
	if (!port) return { outcome: 'failure', error: 'No workflows are connected to this scenario' };
	try {
		const signal = fence?.signal;
		const running = port.call(effect.workflow, effect.inputs, {
			timeoutMs: effect.timeoutMs,
			...(signal ? { signal } : {}),
		});
		// A call given up on (timed out, fenced) may still fail later: not an unhandled rejection.
		running.catch(() => undefined);
		const answer = await withinTime(running, effect.timeoutMs, wait, signal);
		if (answer === TIMED_OUT) {
			return {
				outcome: 'timeout',
				error: `The workflow "${effect.workflow}" did not answer within ${effect.timeoutMs / 1000} s`,
			};
		}
		if (answer === undefined || answer === null) return { outcome: 'empty' };
		return { outcome: 'success', data: answer };
	} catch (error) {
		if (error instanceof FencedError) return 'fenced';
		return { outcome: 'failure', error: error instanceof Error ? error.message : String(error) };
	}
}

const TIMED_OUT = Symbol('timed out');

async function withinTime<T>(
	work: Promise<T>,
	ms: number,
	wait: CancellableWait | undefined,
	fenced: AbortSignal | undefined,
): Promise<T | typeof TIMED_OUT> {
	// The waits are cancelled when the call ends, so no timer or listener outlives it.
	const done = new AbortController();
	const timedOut = (): typeof TIMED_OUT => TIMED_OUT;
	const racers: Array<Promise<T | typeof TIMED_OUT>> = [work];
	if (wait) racers.push(wait(ms, done.signal).then(timedOut, timedOut));
	if (fenced) racers.push(whenAborted(fenced, done.signal));
	try {
		return await Promise.race(racers);
	} finally {
		done.abort();
	}
}

/** Rejects with a FencedError once `signal` fires; never settles if `until` fires first. */
function whenAborted(signal: AbortSignal, until: AbortSignal): Promise<never> {
	return new Promise((_, reject) => {
		const fire = () => reject(new FencedError('the lease on this call was lost'));
		if (signal.aborted) return fire();
		signal.addEventListener('abort', fire, { once: true, signal: until });
	});
}

/** The outcome of a call whose worker stopped before writing it: it is never made again. */
export const LOST_CALL: CallResult = {
	outcome: 'failure',
	error:
		'The worker calling this workflow stopped before recording the result; it was not called again',
};
