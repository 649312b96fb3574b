import type { Core } from './core';
import { errors, HttpError, queryObject, validate } from './http';
import { botOr404, clientOr400 } from './lookups';
import { answer } from './profiles';
import type { RouteContext, Router } from './router';
import { noQuery, sendMessageBody, statsQuery } from './schemas';
import { newId, type Bot } from './state';

/** The service's Bot API under /v1/bots. */
export function registerBotApi(router: Router, core: Core): void {
	router
		.on('GET', '/v1/bots', (ctx) => listBots(core, ctx))
		.on('POST', '/v1/bots/:id/messages', (ctx) => sendMessage(core, ctx))
		.on('GET', '/v1/bots/:id/stats', (ctx) => stats(core, ctx))
		.on('PUT', '/v1/bots/:id/scenarios/:scenario/activate', (ctx) => activate(core, ctx));
}

const publicBot = (bot: Bot) => ({
	id: bot.id,
	name: bot.name,
	status: bot.status,
	created_at: bot.created_at,
	channels: bot.channels,
	active_scenario_id: bot.active_scenario_id,
});

function listBots(core: Core, { res, url }: RouteContext): void {
	validate(noQuery, queryObject(url), 'query');
	answer(core, res, 'bots', [...core.state.bots.values()].map(publicBot));
}

function sendMessage(core: Core, { res, params, body }: RouteContext): void {
	const { state, clock } = core;
	const bot = botOr404(core, params[0]);
	const input = validate(sendMessageBody, body, 'body');
	if (bot.status !== 'active') throw errors.botInactive();
	const client = clientOr400(core, input.client_id);
	const message = state.addMessage({
		message_id: newId('msg'),
		client_id: client.id,
		bot_id: bot.id,
		direction: 'outbound',
		text: input.text,
		type: input.type ?? 'text',
		channel: state.channelFor(bot, client.id),
		timestamp: clock.iso(),
	});
	core.sent.push(message);
	const data = {
		message_id: message.message_id,
		bot_id: bot.id,
		client_id: client.id,
		text: message.text,
		type: message.type,
		channel: message.channel,
		status: 'sent',
		timestamp: message.timestamp,
	};
	core.emit('message.sent', {
		...data,
		metadata: { message_type: message.type, has_attachments: false },
	});
	answer(core, res, 'sent', data);
}

function stats(core: Core, { res, params, url }: RouteContext): void {
	const bot = botOr404(core, params[0]);
	const query = validate(statsQuery, queryObject(url), 'query');
	const to = query.to ?? core.clock.iso().slice(0, 10);
	const from =
		query.from ??
		new Date(Date.parse(`${to}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
	if (from > to) {
		throw new HttpError(400, 'validation_error', 'Invalid query: from must not be after to', [
			{ field: 'from', rule: 'must not be after to' },
		]);
	}
	answer(core, res, 'stats', computeStats(core, bot.id, from, to));
}

function activate(core: Core, { res, params, body }: RouteContext): void {
	const bot = botOr404(core, params[0]);
	const emptyObject =
		typeof body === 'object' &&
		body !== null &&
		!Array.isArray(body) &&
		Object.keys(body).length === 0;
	if (body !== undefined && !emptyObject) {
		throw new HttpError(
			400,
			'validation_error',
			'Invalid request body: this endpoint takes no body',
			[{ field: 'body', rule: 'must be empty' }],
		);
	}
	if (bot.status !== 'active') throw errors.botInactive();
	const scenarioId = params[1];
	if (!bot.scenarios.includes(scenarioId)) throw errors.notFound('Scenario');
	bot.active_scenario_id = scenarioId;
	const data = {
		bot_id: bot.id,
		scenario_id: scenarioId,
		status: 'active',
		activated_at: core.clock.iso(),
	};
	core.emit('bot.started', { ...data, reason: 'scenario_activated' });
	answer(core, res, 'activated', data);
}

/** A bot's figures over [from, to], whole UTC days, from the messages and orders it holds. */
function computeStats(core: Core, botId: string, from: string, to: string) {
	const start = `${from}T00:00:00.000Z`;
	const end = `${to}T23:59:59.999Z`;
	const firstContact = new Map<string, string>();
	let messages = 0;
	const active = new Set<string>();
	for (const m of core.state.messages) {
		if (m.bot_id !== botId) continue;
		if (!firstContact.has(m.client_id)) firstContact.set(m.client_id, m.timestamp);
		if (m.timestamp < start || m.timestamp > end) continue;
		messages++;
		if (m.direction === 'inbound') active.add(m.client_id);
	}
	const newClients = [...firstContact.values()].filter((t) => t >= start && t <= end).length;
	const buyers = new Set(
		[...core.state.orders.values()]
			.filter((o) => active.has(o.client_id) && o.created_at >= start && o.created_at <= end)
			.map((o) => o.client_id),
	);
	return {
		bot_id: botId,
		from,
		to,
		new_clients: newClients,
		messages,
		active_clients: active.size,
		conversion: active.size === 0 ? 0 : Math.round((buyers.size / active.size) * 10_000) / 10_000,
	};
}
