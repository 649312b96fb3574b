import type { Core } from '../core';
import { ok, validate } from '../http';
import type { Router } from '../router';
import { faultBody } from '../schemas';

/** Injected faults: list them, add one, clear them all. */
export function registerFaults(router: Router, core: Core): void {
	router.on('GET', '/_admin/faults', ({ res }) => ok(res, core.faults.list()));
	router.on('POST', '/_admin/faults', ({ res, body }) => {
		ok(res, core.faults.add(validate(faultBody, body, 'body')), 201);
	});
	router.on('DELETE', '/_admin/faults', ({ res }) => {
		core.faults.clear();
		ok(res, { cleared: true });
	});
}
