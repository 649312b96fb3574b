import type { z } from 'zod/v4';

import type { faultBody } from './schemas';

export type Fault = {
	id: number;
	path: string;
	method?: string;
	kind: 'error' | 'hang' | 'answer';
	status: number;
	/** answer: what is sent instead of the real answer. */
	body?: string;
	remaining: number;
	delay_ms?: number;
};

/**
 * Faults injected through the admin API: the next N requests to a path answer with an error
 * status, or hang (never answer, or answer only after `delay_ms`), or are processed as usual and
 * answered with another status and body (`answer`: a shape the spec does not show). A path ending
 * in `*` matches every path with that prefix.
 */
export class FaultTable {
	private faults: Fault[] = [];
	private seq = 1;

	add(input: z.output<typeof faultBody>): Fault {
		const fault: Fault = {
			id: this.seq++,
			path: input.path,
			method: input.method,
			kind: input.kind ?? 'error',
			status: input.status ?? 500,
			remaining: input.count ?? 1,
			delay_ms: input.delay_ms,
			body: input.body,
		};
		this.faults.push(fault);
		return fault;
	}

	/** Consumes one use of the first fault that matches, if any. */
	take(method: string, path: string): Fault | undefined {
		const fault = this.faults.find(
			(f) =>
				f.remaining > 0 &&
				(!f.method || f.method === method) &&
				(f.path.endsWith('*') ? path.startsWith(f.path.slice(0, -1)) : f.path === path),
		);
		if (!fault) return undefined;
		fault.remaining--;
		if (fault.remaining === 0) this.faults = this.faults.filter((f) => f !== fault);
		return { ...fault };
	}

	list(): Fault[] {
		return this.faults.map((f) => ({ ...f }));
	}

	clear(): void {
		this.faults = [];
	}
}
