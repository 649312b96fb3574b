import type { RedisOptions } from 'ioredis';

import { getOrCreate } from '../../per-process';
import type { Clock } from '../clock';
import { LocalWindow } from './local-window';
import { RequestBudget } from './request-budget';

export interface BudgetSettings {
	limit: number;
	windowMs: number;
	/** Shared through this Redis by every process on the key; absent: this process counts alone. */
	redis?: RedisOptions;
}

/**
 * One budget per API key and base URL for the whole process, so every execution and every node
 * in this n8n shares the service's budget of that key. The built package ships this module as one
 * file that every node file requires (dist/lib/budget.js), so the process holds one copy of it.
 */
const budgets = new Map<string, RequestBudget>();

/** The Redis-shared window, loaded only for a credential that shares its budget through Redis. */
function redisWindow(): typeof import('./redis-window') {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on use: ioredis stays out of a process that never shares a budget through Redis
	return require('./redis-window') as typeof import('./redis-window');
}

/** `budgetId` identifies the key and base URL without holding the key (a hash of both). */
export function sharedBudget(
	budgetId: string,
	clock: Clock,
	settings: BudgetSettings,
): RequestBudget {
	const where = settings.redis
		? `@${settings.redis.host ?? 'localhost'}:${settings.redis.port ?? 6379}/${settings.redis.db ?? 0}`
		: '';
	const known = budgets.get(budgetId + where);
	known?.source.tighten(settings.limit, settings.windowMs);
	return getOrCreate(budgets, budgetId + where, () => {
		const source = settings.redis
			? new (redisWindow().RedisWindow)(settings.redis, budgetId, settings.limit, settings.windowMs)
			: new LocalWindow(settings.limit, settings.windowMs, clock);
		return new RequestBudget(source, clock);
	});
}

/** Closes the shared budgets' connections (tests and tools that exit). */
export async function closeBudgets(): Promise<void> {
	const open = [...budgets.values()];
	budgets.clear();
	await Promise.all(
		open.map(async (b) => {
			const source = b.source as { close?: () => Promise<void> };
			await source.close?.();
		}),
	);
}
