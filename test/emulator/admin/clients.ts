import type { Core } from '../core';
import { errors, ok, validate } from '../http';
import type { Router } from '../router';
import { adminClientsBody } from '../schemas';
import { newId, type Client } from '../state';

/** Clients as an import makes them (a list, or `count` generated ones), and one client as stored. */
export function registerClients(router: Router, core: Core): void {
	const { state, clock } = core;

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
		if (!client) throw errors.unseededClient(params[0], state.clients.keys());
		ok(res, client);
	});
}
