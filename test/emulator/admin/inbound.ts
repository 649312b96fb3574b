import type { Core } from '../core';
import { errors, ok, validate } from '../http';
import type { Router } from '../router';
import { inboundBody } from '../schemas';
import { newId } from '../state';

/** A client writes to a bot: the message is stored and message.received goes out. */
export function registerInbound(router: Router, core: Core): void {
	const { state, clock, dispatcher } = core;

	router.on('POST', '/_admin/inbound', ({ res, body }) => {
		const input = validate(inboundBody, body, 'body');
		const bot = state.bots.get(input.bot_id);
		if (!bot) throw errors.botNotFound();
		const client = state.clients.get(input.client_id);
		if (!client) throw errors.unseededClient(input.client_id, state.clients.keys());
		// Written again with the same id (a test's retry after a dropped connection): taken once.
		const known =
			input.message_id === undefined
				? undefined
				: state.historyOf(client.id).find((m) => m.message_id === input.message_id);
		if (known) return ok(res, { message: known, delivery_ids: [] }, 200);
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
}
