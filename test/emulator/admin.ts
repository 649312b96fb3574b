import { randomBytes } from 'node:crypto';

import type { Core } from './core';
import { errors, HttpError, ok, queryObject, validate } from './http';
import type { Router } from './router';
import {
	adminBotBody,
	adminBotPatch,
	adminClientsBody,
	clockBody,
	configBody,
	eventBody,
	faultBody,
	inboundBody,
	noQuery,
	subscriptionBody,
	subscriptionPatch,
	type EventType,
} from './schemas';
import { newId, type Client } from './state';
import type { Delivery, Subscription } from './webhooks';

/** What a dashboard user (or a test) does to the service: everything under /_admin. */
export function registerAdmin(router: Router, core: Core): void {
	const { state, clock, dispatcher } = core;

	const publicSubscription = (s: Subscription) => {
		const { secret, ...rest } = s;
		return { ...rest, has_secret: secret !== null };
	};
	const publicDelivery = (d: Delivery) => d;

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

	router.on('POST', '/_admin/keys', ({ res }) => {
		const key = `mb_test_${randomBytes(16).toString('hex')}`;
		core.apiKeys.add(key);
		ok(res, { api_key: key }, 201);
	});
	router.on('DELETE', '/_admin/keys/:key', ({ res, params }) => {
		if (!core.apiKeys.delete(params[0])) throw errors.notFound('API key');
		ok(res, { revoked: true });
	});

	router.on('POST', '/_admin/bots', ({ res, body }) => {
		const input = validate(adminBotBody, body, 'body');
		const id = input.id ?? newId('bot');
		if (state.bots.has(id)) throw new HttpError(409, 'conflict', `Bot ${id} already exists`);
		const bot = state.addBot({
			id,
			name: input.name,
			status: input.status ?? 'active',
			created_at: clock.iso(),
			channels: input.channels ?? ['telegram'],
			scenarios: input.scenarios ?? [],
			active_scenario_id: null,
		});
		ok(res, bot, 201);
	});

	router.on('PATCH', '/_admin/bots/:id', ({ res, params, body }) => {
		const bot = state.bots.get(params[0]);
		if (!bot) throw errors.botNotFound();
		const input = validate(adminBotPatch, body, 'body');
		const wasActive = bot.status === 'active';
		Object.assign(bot, input);
		if (wasActive && bot.status === 'inactive') {
			core.emit('bot.stopped', { bot_id: bot.id, reason: 'switched_off' });
		}
		if (!wasActive && bot.status === 'active') {
			core.emit('bot.started', { bot_id: bot.id, reason: 'switched_on' });
		}
		ok(res, bot);
	});

	router.on('POST', '/_admin/clients', ({ res, body }) => {
		const input = validate(adminClientsBody, body, 'body');
		const created: Client[] = [];
		const base = clock.now();
		const rows =
			'count' in input
				? Array.from({ length: input.count }, (_, i) => ({
						email: `client${state.clients.size + i + 1}@${input.email_domain ?? 'example.test'}`,
						first_name: `Client${state.clients.size + i + 1}`,
						tags: input.tags,
					}))
				: input.clients;
		rows.forEach((row, i) => {
			if (state.findClientByEmailOrPhone(row.email, 'phone' in row ? row.phone : undefined)) return;
			// Creation times one millisecond apart keep search order stable and distinct.
			const at = new Date(base - (rows.length - i)).toISOString();
			created.push(
				state.addClient({
					id: newId('cl'),
					email: row.email ?? null,
					phone: ('phone' in row ? row.phone : undefined) ?? null,
					first_name: row.first_name ?? null,
					last_name: ('last_name' in row ? row.last_name : undefined) ?? null,
					custom_fields: ('custom_fields' in row ? row.custom_fields : undefined) ?? {},
					tags: [...new Set(row.tags ?? [])],
					created_at: at,
					updated_at: at,
				}),
			);
		});
		ok(res, { created: created.length, ids: created.map((c) => c.id) }, 201);
	});

	router.on('GET', '/_admin/clients/:id', ({ res, params }) => {
		const client = state.clients.get(params[0]);
		if (!client) throw errors.invalidClientId();
		ok(res, client);
	});

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

	router.on('POST', '/_admin/inbound', ({ res, body }) => {
		const input = validate(inboundBody, body, 'body');
		const bot = state.bots.get(input.bot_id);
		if (!bot) throw errors.botNotFound();
		const client = state.clients.get(input.client_id);
		if (!client) throw errors.invalidClientId();
		const message = state.addMessage({
			message_id: input.message_id ?? newId('msg'),
			client_id: client.id,
			bot_id: bot.id,
			direction: 'inbound',
			text: input.text,
			type: 'text',
			channel: input.channel ?? state.channelFor(bot, client.id),
			timestamp: clock.iso(),
		});
		const data = {
			message_id: message.message_id,
			client_id: client.id,
			bot_id: bot.id,
			text: message.text,
			channel: message.channel,
			timestamp: message.timestamp,
			metadata: { message_type: 'text', has_attachments: false },
		};
		const deliveries = dispatcher.emit('message.received', data);
		ok(res, { message: data, delivery_ids: deliveries.map((d) => d.id) }, 201);
	});

	router.on('POST', '/_admin/events', ({ res, body }) => {
		const input = validate(eventBody, body, 'body');
		const data = completeEventData(core, input.event, input.data ?? {});
		const deliveries = dispatcher.emit(input.event, data);
		ok(res, { event: input.event, data, delivery_ids: deliveries.map((d) => d.id) }, 201);
	});

	router.on('GET', '/_admin/deliveries', ({ res, url }) => {
		const q = queryObject(url);
		const list = [...dispatcher.deliveries.values()].filter(
			(d) =>
				(!q.event || d.event === q.event) &&
				(!q.state || d.state === q.state) &&
				(!q.subscription_id || d.subscription_id === q.subscription_id),
		);
		ok(res, list.map(publicDelivery));
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

	router.on('GET', '/_admin/sent-messages', ({ res, url }) => {
		const q = queryObject(url);
		ok(
			res,
			core.sent.filter(
				(m) =>
					(!q.bot_id || m.bot_id === q.bot_id) && (!q.client_id || m.client_id === q.client_id),
			),
		);
	});

	router.on('GET', '/_admin/requests', ({ res }) => ok(res, core.requestLog));

	router.on('GET', '/_admin/faults', ({ res }) => ok(res, core.faults.list()));
	router.on('POST', '/_admin/faults', ({ res, body }) => {
		ok(res, core.faults.add(validate(faultBody, body, 'body')), 201);
	});
	router.on('DELETE', '/_admin/faults', ({ res }) => {
		core.faults.clear();
		ok(res, { cleared: true });
	});

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

function currentConfig(core: Core) {
	return {
		rate_limit: core.limiter.limit,
		rate_window_ms: core.limiter.windowMs,
		delivery_timeout_ms: core.dispatcher.settings.deliveryTimeoutMs,
		retry_delays_ms: core.dispatcher.settings.retryDelaysMs,
		time_scale: core.clock.getScale(),
	};
}

/**
 * Fills in what an injected event needs to look like the service's: order events carry the
 * client's id and are recorded on the client; client events name an existing client.
 */
function completeEventData(
	core: Core,
	event: EventType,
	data: Record<string, unknown>,
): Record<string, unknown> {
	const now = core.clock.iso();
	if (event.startsWith('order.')) {
		const clientId = data.client_id;
		if (typeof clientId !== 'string' || !core.state.clients.has(clientId)) {
			throw new HttpError(
				400,
				'validation_error',
				'Order events need data.client_id naming an existing client',
				[{ field: 'data.client_id', rule: 'must name an existing client' }],
			);
		}
		const orderId = typeof data.order_id === 'string' ? data.order_id : newId('ord');
		const previous = core.state.orders.get(orderId);
		const status =
			typeof data.status === 'string'
				? data.status
				: event === 'order.completed'
					? 'completed'
					: (previous?.status ?? 'created');
		const order = {
			...previous,
			total: 0,
			currency: 'EUR',
			...(previous ?? {}),
			...data,
			order_id: orderId,
			client_id: clientId,
			status,
			created_at: previous?.created_at ?? now,
			updated_at: now,
		} as Parameters<typeof core.state.orders.set>[1];
		core.state.orders.set(orderId, order);
		return { ...order };
	}
	// A33: every event of a client carries client_id; A9: it must name an existing client.
	if (event.startsWith('client.') || event.startsWith('message.')) {
		if (typeof data.client_id !== 'string') {
			throw new HttpError(400, 'validation_error', `${event} events need data.client_id`, [
				{ field: 'data.client_id', rule: 'is required' },
			]);
		}
		if (!core.state.clients.has(data.client_id)) {
			throw new HttpError(400, 'invalid_client_id', 'Invalid client_id', [
				{ field: 'data.client_id', rule: 'must name an existing client' },
			]);
		}
	}
	if (event.startsWith('bot.') && typeof data.bot_id !== 'string') {
		throw new HttpError(400, 'validation_error', `${event} events need data.bot_id`, [
			{ field: 'data.bot_id', rule: 'is required' },
		]);
	}
	return { ...data, timestamp: typeof data.timestamp === 'string' ? data.timestamp : now };
}
