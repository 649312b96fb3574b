import type { Core } from '../core';
import { ok, queryObject } from '../http';
import type { Router } from '../router';

/** What the service recorded: the messages bots sent, and every API request with its answer. */
export function registerLogs(router: Router, core: Core): void {
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
}
