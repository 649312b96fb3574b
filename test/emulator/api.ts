import type { Core } from './core';
import { errors, HttpError, jsonTooDeep, queryObject, tooDeep, tryJson, validate } from './http';
import { answer, listedHistory } from './profiles';
import type { Router } from './router';
import {
	createClientBody,
	LIMITS,
	noQuery,
	pageQuery,
	searchClientsQuery,
	sendMessageBody,
	statsQuery,
	updateTagsBody,
} from './schemas';
import { newId, type Bot, type Client } from './state';

/** The service's Bot and Client API under /v1, as docs/service-assumptions.md describes it. */
export function registerApi(router: Router, core: Core): void {
	const { state, clock } = core;

	const botOr404 = (id: string): Bot => {
		const bot = state.bots.get(id);
		if (!bot) throw errors.botNotFound();
		return bot;
	};
	const clientOr400 = (id: string): Client => {
		const client = state.clients.get(id);
		if (!client) throw errors.invalidClientId();
		return client;
	};
	const publicBot = (bot: Bot) => ({
		id: bot.id,
		name: bot.name,
		status: bot.status,
		created_at: bot.created_at,
		channels: bot.channels,
		active_scenario_id: bot.active_scenario_id,
	});

	router.on('GET', '/v1/bots', ({ res, url }) => {
		validate(noQuery, queryObject(url), 'query');
		answer(core, res, 'bots', [...state.bots.values()].map(publicBot));
	});

	router.on('POST', '/v1/bots/:id/messages', ({ res, params, body }) => {
		const bot = botOr404(params[0]);
		const input = validate(sendMessageBody, body, 'body');
		if (bot.status !== 'active') throw errors.botInactive();
		const client = clientOr400(input.client_id);
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
	});

	router.on('GET', '/v1/bots/:id/stats', ({ res, params, url }) => {
		const bot = botOr404(params[0]);
		const query = validate(statsQuery, queryObject(url), 'query');
		const to = query.to ?? clock.iso().slice(0, 10);
		const from =
			query.from ??
			new Date(Date.parse(`${to}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
		if (from > to) {
			throw new HttpError(400, 'validation_error', 'Invalid query: from must not be after to', [
				{ field: 'from', rule: 'must not be after to' },
			]);
		}
		answer(core, res, 'stats', computeStats(core, bot.id, from, to));
	});

	router.on('PUT', '/v1/bots/:id/scenarios/:scenario/activate', ({ res, params, body }) => {
		const bot = botOr404(params[0]);
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
			activated_at: clock.iso(),
		};
		core.emit('bot.started', { ...data, reason: 'scenario_activated' });
		answer(core, res, 'activated', data);
	});

	router.on('GET', '/v1/clients', ({ res, url }) => {
		const query = validate(searchClientsQuery, queryObject(url), 'query');
		const limit = query.limit ?? LIMITS.pageDefault;
		const offset = query.offset ?? 0;
		const matches = searchClients(core, query);
		answer(core, res, 'clients', matches.slice(offset, offset + limit));
	});

	router.on('POST', '/v1/clients', ({ res, body }) => {
		const input = validate(createClientBody, body, 'body');
		const existing = state.findClientByEmailOrPhone(input.email, input.phone);
		if (existing) {
			// Idempotent: the existing record, unchanged.
			answer(core, res, 'existing', existing);
			return;
		}
		const now = clock.iso();
		const client = state.addClient({
			id: newId('cl'),
			email: input.email ?? null,
			phone: input.phone ?? null,
			first_name: input.first_name ?? null,
			last_name: input.last_name ?? null,
			custom_fields: input.custom_fields ?? {},
			tags: [...new Set(input.tags ?? [])],
			created_at: now,
			updated_at: now,
		});
		core.emit('client.created', { client_id: client.id, client });
		answer(core, res, 'created', client);
	});

	router.on('GET', '/v1/clients/:id', ({ res, params, url }) => {
		validate(noQuery, queryObject(url), 'query');
		const client = clientOr400(params[0]);
		const history = state.historyOf(client.id);
		answer(core, res, 'client', {
			...client,
			messages: history.slice(-20),
			message_count: history.length,
			orders: state.ordersOf(client.id),
		});
	});

	router.on('PUT', '/v1/clients/:id/tags', ({ res, params, body }) => {
		const client = clientOr400(params[0]);
		const input = validate(updateTagsBody, body, 'body');
		const before = new Set(client.tags);
		const added = [...new Set(input.add ?? [])].filter((t) => !before.has(t));
		const removed = [...new Set(input.remove ?? [])].filter((t) => before.has(t));
		if (added.length > 0 || removed.length > 0) {
			client.tags = [...client.tags.filter((t) => !removed.includes(t)), ...added];
			client.updated_at = clock.iso();
		}
		if (added.length > 0) {
			core.emit('client.tagged', { client_id: client.id, tags_added: added, tags: client.tags });
		}
		if (removed.length > 0) {
			core.emit('client.updated', {
				client_id: client.id,
				changes: { tags_removed: removed },
				tags: client.tags,
			});
		}
		answer(core, res, 'tags', client);
	});

	router.on('GET', '/v1/clients/:id/messages', ({ res, params, url }) => {
		const client = clientOr400(params[0]);
		const query = validate(pageQuery, queryObject(url), 'query');
		const limit = query.limit ?? LIMITS.pageDefault;
		const offset = query.offset ?? 0;
		const shown = listedHistory(core, state.historyOf(client.id));
		answer(core, res, 'history', shown.slice(offset, offset + limit));
	});
}

type SearchQuery = {
	email?: string;
	phone?: string;
	tags?: string;
	created_after?: string;
	custom_fields?: string;
};

function searchClients(core: Core, query: SearchQuery): Client[] {
	let wantedFields: Record<string, unknown> | undefined;
	if (query.custom_fields !== undefined) {
		const parsed = tryJson(query.custom_fields);
		if ('value' in parsed && jsonTooDeep(parsed.value)) throw tooDeep('query', 'custom_fields');
		wantedFields = 'value' in parsed ? (parsed.value as Record<string, unknown>) : undefined;
		if (!wantedFields || typeof wantedFields !== 'object' || Array.isArray(wantedFields)) {
			throw new HttpError(
				400,
				'validation_error',
				'Invalid query: custom_fields must be a JSON object',
				[{ field: 'custom_fields', rule: 'must be a JSON object' }],
			);
		}
	}
	const tags = query.tags
		?.split(',')
		.map((t) => t.trim())
		.filter(Boolean);
	const email = query.email?.toLowerCase();
	const since = query.created_after ? `${query.created_after}T00:00:00.000Z` : undefined;
	const out: Client[] = [];
	for (const id of core.state.clientOrder) {
		const c = core.state.clients.get(id) as Client;
		if (email !== undefined && c.email?.toLowerCase() !== email) continue;
		if (query.phone !== undefined && c.phone !== query.phone) continue;
		if (tags && !tags.every((t) => c.tags.includes(t))) continue;
		if (since && c.created_at < since) continue;
		if (
			wantedFields &&
			!Object.entries(wantedFields).every(([k, v]) => deepEqual(c.custom_fields[k], v))
		) {
			continue;
		}
		out.push(c);
	}
	return out;
}

function deepEqual(a: unknown, b: unknown): boolean {
	return JSON.stringify(a) === JSON.stringify(b);
}

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
