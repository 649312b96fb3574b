import type { RedisOptions } from 'ioredis';

import type { Clock } from '../clock';
import { LocalWindow } from './local-window';
import { RedisWindow } from './redis-window';
import { RequestBudget } from './request-budget';

export interface BudgetSettings {
	limit: number;
	windowMs: number;
	/** Shared through this Redis by every process on the key; absent: this process counts alone. */
	redis?: RedisOptions;
}

/**
 * One budget per API key and base URL for the whole process, so every execution and every node
 * in this n8n shares the service's budget of that key. The registry lives on `globalThis`, not in
 * this module: each node is bundled on its own, and a module-level map would give every bundle
 * (the Messaging Bot node, the Scenario node) a budget of its own on the same key.
 */
const REGISTRY = Symbol.for('n8n-nodes-messaging-bot.request-budgets.v2');

function registry(): Map<string, RequestBudget> {
	// eslint-disable-next-line @n8n/community-nodes/no-restricted-globals -- the one object every separately bundled node of this package shares in the n8n process; a module-level map would double the service's limit
	const holder = globalThis as { [REGISTRY]?: Map<string, RequestBudget> };
	return (holder[REGISTRY] ??= new Map());
}

/** `budgetId` identifies the key and base URL without holding the key (a hash of both). */
export function sharedBudget(
	budgetId: string,
	clock: Clock,
	settings: BudgetSettings,
): RequestBudget {
	const budgets = registry();
	const where = settings.redis
		? `@${settings.redis.host ?? 'localhost'}:${settings.redis.port ?? 6379}/${settings.redis.db ?? 0}`
		: '';
	let budget = budgets.get(budgetId + where);
	if (!budget) {
		const source = settings.redis
			? new RedisWindow(settings.redis, budgetId, settings.limit, settings.windowMs)
			: new LocalWindow(settings.limit, settings.windowMs, clock);
		budget = new RequestBudget(source, clock);
		budgets.set(budgetId + where, budget);
	} else budget.source.tighten(settings.limit, settings.windowMs);
	return budget;
}

/** Closes the shared budgets' connections (tests and tools that exit). */
export async function closeBudgets(): Promise<void> {
	const budgets = [...registry().values()];
	registry().clear();
	await Promise.all(
		budgets.map((b) => (b.source instanceof RedisWindow ? b.source.close() : undefined)),
	);
}
