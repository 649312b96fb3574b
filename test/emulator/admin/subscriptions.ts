import type { Core } from '../core';
import { errors, ok, validate } from '../http';
import type { Router } from '../router';
import { subscriptionBody, subscriptionPatch } from '../schemas';
import { newId } from '../state';
import type { Subscription } from '../webhooks';

/** A subscription as the dashboard shows it: whether it has a secret, never the secret. */
function publicSubscription(s: Subscription) {
	const { secret, ...rest } = s;
	return { ...rest, has_secret: secret !== null };
}

/** Webhook subscriptions; saving one sends the test event (A31), as the service does. */
export function registerSubscriptions(router: Router, core: Core): void {
	const { clock, dispatcher } = core;

	router.on('GET', '/_admin/subscriptions', ({ res }) =>
		ok(res, [...dispatcher.subscriptions.values()].map(publicSubscription)),
	);

	router.on('POST', '/_admin/subscriptions', async ({ res, body }) => {
		const input = validate(subscriptionBody, body, 'body');
		const now = clock.iso();
		const sub: Subscription = {
			id: newId('wh'),
			url: input.url,
			secret: input.secret ?? null,
			events: input.events ?? ['*'],
			active: input.active ?? true,
			created_at: now,
			updated_at: now,
		};
		dispatcher.subscriptions.set(sub.id, sub);
		const test = await dispatcher.sendTest(sub);
		ok(res, { subscription: publicSubscription(sub), test_delivery: test }, 201);
	});

	router.on('PATCH', '/_admin/subscriptions/:id', async ({ res, params, body }) => {
		const sub = dispatcher.subscriptions.get(params[0]);
		if (!sub) throw errors.notFound('Subscription');
		const input = validate(subscriptionPatch, body, 'body');
		if (input.url !== undefined) sub.url = input.url;
		if (input.secret !== undefined) sub.secret = input.secret;
		if (input.events !== undefined) sub.events = input.events;
		if (input.active !== undefined) sub.active = input.active;
		sub.updated_at = clock.iso();
		const test = await dispatcher.sendTest(sub);
		ok(res, { subscription: publicSubscription(sub), test_delivery: test });
	});

	router.on('DELETE', '/_admin/subscriptions/:id', ({ res, params }) => {
		if (!dispatcher.subscriptions.delete(params[0])) throw errors.notFound('Subscription');
		ok(res, { deleted: true });
	});

	router.on('POST', '/_admin/subscriptions/:id/test', async ({ res, params }) => {
		const sub = dispatcher.subscriptions.get(params[0]);
		if (!sub) throw errors.notFound('Subscription');
		ok(res, await dispatcher.sendTest(sub));
	});
}
