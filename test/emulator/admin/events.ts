import type { Core } from '../core';
import { HttpError, ok, validate } from '../http';
import type { Router } from '../router';
import { eventBody, type EventType } from '../schemas';
import { newId } from '../state';

type EventData = Record<string, unknown>;

/** Any documented event, injected as if the service had emitted it. */
export function registerEvents(router: Router, core: Core): void {
	router.on('POST', '/_admin/events', ({ res, body }) => {
		const input = validate(eventBody, body, 'body');
		const data = completeEventData(core, input.event, input.data ?? {});
		const deliveries = core.dispatcher.emit(input.event, data);
		ok(res, { event: input.event, data, delivery_ids: deliveries.map((d) => d.id) }, 201);
	});
}

/**
 * Fills in what an injected event needs to look like the service's: order events carry the
 * client's id and are recorded on the client; client events name an existing client.
 */
function completeEventData(core: Core, event: EventType, data: EventData): EventData {
	if (event.startsWith('order.')) return recordOrder(core, event, data);
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
	const now = core.clock.iso();
	return { ...data, timestamp: typeof data.timestamp === 'string' ? data.timestamp : now };
}

/** An order event updates the stored order (A25) and carries the whole of it. */
function recordOrder(core: Core, event: EventType, data: EventData): EventData {
	const now = core.clock.iso();
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
