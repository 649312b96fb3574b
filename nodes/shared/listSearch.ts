import type {
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodePropertyOptions,
} from 'n8n-workflow';

import { listError } from './errors';
import { clientFor } from './transport';

/** Bots for the resource locator, filtered by name or ID as the user types. */
export async function searchBots(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const bots = await (await clientFor(this, 'interactive')).listBots().catch((error: unknown) => {
		throw listError(this.getNode(), error);
	});
	const needle = filter?.toLowerCase() ?? '';
	return {
		results: bots
			.filter(
				(b) =>
					!needle || b.name.toLowerCase().includes(needle) || b.id.toLowerCase().includes(needle),
			)
			.map((b) => ({
				name: `${b.name}${b.status === 'active' ? '' : ` (${b.status})`}`,
				value: b.id,
			})),
	};
}

/** Clients for the resource locator: an exact email typed finds one; otherwise the first page. */
export async function searchClients(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const api = await clientFor(this, 'interactive');
	const offset = Number(paginationToken ?? 0) || 0;
	const text = filter?.trim() ?? '';
	const byEmail = text.includes('@');
	const clients = await api
		.searchClients(byEmail ? { email: text } : {}, { limit: 100, offset })
		.catch((error: unknown) => {
			throw listError(this.getNode(), error);
		});
	const needle = byEmail ? '' : text.toLowerCase();
	const label = (c: (typeof clients)[number]) =>
		[[c.first_name, c.last_name].filter(Boolean).join(' '), c.email ?? c.phone ?? c.id]
			.filter(Boolean)
			.join(' · ');
	return {
		results: clients
			.filter(
				(c) =>
					!needle || label(c).toLowerCase().includes(needle) || c.id.toLowerCase().includes(needle),
			)
			.map((c) => ({ name: label(c), value: c.id })),
		paginationToken: clients.length === 100 ? String(offset + 100) : undefined,
	};
}

/** Bots for a multi-select (the triggers' Bots filter). */
export async function getBots(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const { results } = await searchBots.call(this);
	return results.map((r) => ({ name: r.name, value: r.value }));
}
