import type { Core } from './core';
import { errors } from './http';
import type { Bot, Client } from './state';

/** The bot of a path's id, or the service's 404. */
export function botOr404(core: Core, id: string): Bot {
	const bot = core.state.bots.get(id);
	if (!bot) throw errors.botNotFound();
	return bot;
}

/** The client of an id, or the service's 400 (an unknown client id is invalid input, not a path). */
export function clientOr400(core: Core, id: string): Client {
	const client = core.state.clients.get(id);
	if (!client) throw errors.invalidClientId();
	return client;
}
