import type { Core } from '../core';
import { errors, HttpError, ok, validate } from '../http';
import type { Router } from '../router';
import { adminBotBody, adminBotPatch } from '../schemas';
import { newId } from '../state';

/** Bots as the dashboard makes them; switching one off or on emits bot.stopped or bot.started. */
export function registerBots(router: Router, core: Core): void {
	const { state, clock } = core;

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
}
