import type { Core } from '../core';
import { errors, HttpError, ok, queryObject } from '../http';
import type { Router } from '../router';

/** Webhook deliveries with their attempts, the dead-letter queue, and waiting for the queue to settle. */
export function registerDeliveries(router: Router, core: Core): void {
	const { clock, dispatcher } = core;

	router.on('GET', '/_admin/deliveries', ({ res, url }) => {
		const q = queryObject(url);
		const list = [...dispatcher.deliveries.values()].filter(
			(d) =>
				(!q.event || d.event === q.event) &&
				(!q.state || d.state === q.state) &&
				(!q.subscription_id || d.subscription_id === q.subscription_id),
		);
		ok(res, list);
	});
	router.on('GET', '/_admin/deliveries/:id', ({ res, params }) => {
		const d = dispatcher.deliveries.get(params[0]);
		if (!d) throw errors.notFound('Delivery');
		ok(res, d);
	});
	router.on('POST', '/_admin/settle', async ({ res }) => {
		await dispatcher.idle();
		ok(res, { settled: true, pending_tasks: clock.pendingTasks() });
	});

	router.on('GET', '/_admin/dead-letter', ({ res }) =>
		ok(
			res,
			[...dispatcher.deliveries.values()].filter((d) => d.state === 'dead_letter'),
		),
	);
	router.on('POST', '/_admin/dead-letter/:id/redeliver', async ({ res, params }) => {
		const existing = dispatcher.deliveries.get(params[0]);
		if (!existing) throw errors.notFound('Delivery');
		if (existing.state !== 'dead_letter') {
			throw new HttpError(
				409,
				'conflict',
				`Delivery ${existing.id} is ${existing.state}, not in the dead-letter queue`,
			);
		}
		ok(res, await dispatcher.redeliver(existing.id));
	});
}
