import type { Core } from '../core';
import { ok, validate } from '../http';
import type { Router } from '../router';
import { configBody } from '../schemas';

/** The service as a whole: a summary of what it holds, a reset, and its settings. */
export function registerService(router: Router, core: Core): void {
	const { state, clock, dispatcher } = core;

	router.on('GET', '/_admin/state', ({ res }) =>
		ok(res, {
			now: clock.iso(),
			bots: state.bots.size,
			clients: state.clients.size,
			messages: state.messages.length,
			subscriptions: dispatcher.subscriptions.size,
			deliveries: dispatcher.deliveries.size,
			pending_tasks: clock.pendingTasks(),
		}),
	);

	router.on('POST', '/_admin/reset', ({ res }) => {
		core.reset();
		ok(res, { reset: true });
	});

	router.on('POST', '/_admin/config', ({ res, body }) => {
		const input = validate(configBody, body, 'body');
		if (input.rate_limit !== undefined) core.limiter.limit = input.rate_limit;
		if (input.rate_window_ms !== undefined) core.limiter.windowMs = input.rate_window_ms;
		if (input.delivery_timeout_ms !== undefined) {
			dispatcher.settings.deliveryTimeoutMs = input.delivery_timeout_ms;
		}
		if (input.retry_delays_ms !== undefined)
			dispatcher.settings.retryDelaysMs = input.retry_delays_ms;
		if (input.time_scale !== undefined) clock.setScale(input.time_scale);
		ok(res, currentConfig(core));
	});
	router.on('GET', '/_admin/config', ({ res }) => ok(res, currentConfig(core)));
}

function currentConfig(core: Core) {
	return {
		rate_limit: core.limiter.limit,
		rate_window_ms: core.limiter.windowMs,
		delivery_timeout_ms: core.dispatcher.settings.deliveryTimeoutMs,
		retry_delays_ms: core.dispatcher.settings.retryDelaysMs,
		time_scale: core.clock.getScale(),
	};
}
