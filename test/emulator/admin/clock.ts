import type { Core } from '../core';
import { ok, queryObject, validate } from '../http';
import type { Router } from '../router';
import { clockBody, noQuery } from '../schemas';

/** The virtual clock: read it, or move it on and run what fell due. */
export function registerClock(router: Router, core: Core): void {
	const { clock, dispatcher } = core;

	router.on('GET', '/_admin/clock', ({ res, url }) => {
		validate(noQuery, queryObject(url), 'query');
		ok(res, { now: clock.iso(), scale: clock.getScale(), pending_tasks: clock.pendingTasks() });
	});
	router.on('POST', '/_admin/clock/advance', async ({ res, body }) => {
		const input = validate(clockBody, body, 'body');
		const ran = await clock.advance(input.ms);
		await dispatcher.idle();
		ok(res, { now: clock.iso(), ran, pending_tasks: clock.pendingTasks() });
	});
}
