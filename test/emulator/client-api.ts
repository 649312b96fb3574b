import type { Core } from './core';
import { HttpError, jsonTooDeep, queryObject, tooDeep, tryJson, validate } from './http';
import { clientOr400 } from './lookups';
import { answer, listedHistory } from './profiles';
import type { RouteContext, Router } from './router';
import {
	createClientBody,
	LIMITS,
	noQuery,
	pageQuery,
	searchClientsQuery,
	updateTagsBody,
} from './schemas';
import { newId, type Client } from './state';

/** The service's Client API under /v1/clients. */
export function registerClientApi(router: Router, core: Core): void {
	router
		.on('GET', '/v1/clients', (ctx) => search(core, ctx))
		.on('POST', '/v1/clients', (ctx) => create(core, ctx))
		.on('GET', '/v1/clients/:id', (ctx) => getClient(core, ctx))
		.on('PUT', '/v1/clients/:id/tags', (ctx) => updateTags(core, ctx))
		.on('GET', '/v1/clients/:id/messages', (ctx) => history(core, ctx));
}

function search(core: Core, { res, url }: RouteContext): void {
	const query = validate(searchClientsQuery, queryObject(url), 'query');
	const limit = query.limit ?? LIMITS.pageDefault;
	const offset = query.offset ?? 0;
	const matches = searchClients(core, query);
	answer(core, res, 'clients', matches.slice(offset, offset + limit));
}

function create(core: Core, { res, body }: RouteContext): void {
	const { state, clock } = core;
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
}

function getClient(core: Core, { res, params, url }: RouteContext): void {
	validate(noQuery, queryObject(url), 'query');
	const client = clientOr400(core, params[0]);
	const history = core.state.historyOf(client.id);
	answer(core, res, 'client', {
		...client,
		messages: history.slice(-20),
		message_count: history.length,
		orders: core.state.ordersOf(client.id),
	});
}

function updateTags(core: Core, { res, params, body }: RouteContext): void {
	const client = clientOr400(core, params[0]);
	const input = validate(updateTagsBody, body, 'body');
	const before = new Set(client.tags);
	const added = [...new Set(input.add ?? [])].filter((t) => !before.has(t));
	const removed = [...new Set(input.remove ?? [])].filter((t) => before.has(t));
	if (added.length > 0 || removed.length > 0) {
		client.tags = [...client.tags.filter((t) => !removed.includes(t)), ...added];
		client.updated_at = core.clock.iso();
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
}

function history(core: Core, { res, params, url }: RouteContext): void {
	const client = clientOr400(core, params[0]);
	const query = validate(pageQuery, queryObject(url), 'query');
	const limit = query.limit ?? LIMITS.pageDefault;
	const offset = query.offset ?? 0;
	const shown = listedHistory(core, core.state.historyOf(client.id));
	answer(core, res, 'history', shown.slice(offset, offset + limit));
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
