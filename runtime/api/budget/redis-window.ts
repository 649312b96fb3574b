import { randomUUID } from 'node:crypto';

// ioredis (bundled): the Redis client n8n's own queue mode uses.
import { Redis, type RedisOptions } from 'ioredis';

import { MessagingBotError } from '../errors';
import { BLOCK_SCRIPT, SETTLE_SCRIPT, TAKE_SCRIPT } from './redis-take.lua';
import {
	marginFor,
	PRIORITIES,
	RESERVE_WINDOWS,
	reserveFor,
	type Priority,
	type SlotSource,
	type Take,
} from './types';

/** The shared budget's Redis could not be used: nothing was sent past the limit. */
export class RequestBudgetError extends MessagingBotError {
	constructor(where: string, cause: Error) {
		super(
			`The request budget shared through Redis at ${where} cannot be used (${cause.message}). No request was sent, so the service's limit is never exceeded. Check that Redis is running there, or the Redis settings of the Messaging Bot API credential.`,
			0,
		);
	}
}

type Scripted = Redis & {
	mbBudgetTake(...args: Array<string | number>): Promise<number | string>;
	mbBudgetSettle(key: string, slot: string): Promise<number>;
	mbBudgetBlock(key: string, ms: number): Promise<number>;
};

/** A turn this long past its last ask is taken for a killed process and given up. */
const GRACE_MS = 2_000;
/** How long an unanswered slot holds its place: past the client's 30 s timeout, the process died. */
const HOLD_MS = 60_000;

/**
 * One count per key shared by every process that reaches the same Redis: n8n's main process and
 * its queue-mode workers. Each acquisition is one atomic script on Redis's clock; processes take
 * turns at each priority, so the budget is shared fairly between workers.
 */
export class RedisWindow implements SlotSource {
	private readonly redis: Scripted;
	private readonly member = randomUUID();
	private connecting: Promise<void> | undefined;
	readonly where: string;

	constructor(
		connection: RedisOptions,
		private readonly budgetId: string,
		public limit: number,
		public windowMs: number,
	) {
		const redis = new Redis({
			lazyConnect: true,
			maxRetriesPerRequest: 1,
			connectTimeout: 5_000,
			...connection,
		}) as Scripted;
		redis.defineCommand('mbBudgetTake', { numberOfKeys: 6, lua: TAKE_SCRIPT });
		redis.defineCommand('mbBudgetBlock', { numberOfKeys: 1, lua: BLOCK_SCRIPT });
		redis.defineCommand('mbBudgetSettle', { numberOfKeys: 1, lua: SETTLE_SCRIPT });
		// Errors surface on the commands that fail; an unhandled 'error' event would crash n8n.
		redis.on('error', () => undefined);
		this.redis = redis;
		this.where = `${connection.host ?? 'localhost'}:${connection.port ?? 6379}`;
	}

	async take(priority: Priority, waiting: ReadonlySet<Priority>): Promise<Take> {
		const ranks = (set: Iterable<Priority>) => [...set].map((p) => PRIORITIES.indexOf(p)).join(',');
		const span = this.windowMs + marginFor(this.windowMs);
		const wait = await this.run(() =>
			this.redis.mbBudgetTake(
				this.key('window'),
				this.key('blocked'),
				this.key('waiters'),
				this.key('alive'),
				this.key('turn'),
				this.key('answering'),
				this.member,
				PRIORITIES.indexOf(priority),
				ranks(waiting),
				this.limit,
				span,
				GRACE_MS,
				reserveFor(this.limit),
				Math.ceil(RESERVE_WINDOWS * span),
				HOLD_MS,
			),
		);
		return typeof wait === 'string' ? { slot: wait } : { wait: Number(wait) };
	}

	async settle(slot: string): Promise<void> {
		await this.run(() => this.redis.mbBudgetSettle(this.key('window'), slot));
	}

	async block(ms: number): Promise<void> {
		await this.run(() => this.redis.mbBudgetBlock(this.key('blocked'), Math.ceil(ms)));
	}

	tighten(limit: number, windowMs: number): void {
		this.limit = Math.min(this.limit, limit);
		this.windowMs = Math.max(this.windowMs, windowMs);
	}

	async close(): Promise<void> {
		this.redis.disconnect();
	}

	/** Hash-tagged by budget, so one budget's keys stay in one slot of a cluster. */
	private key(kind: string): string {
		return `messaging-bot:budget:{${this.budgetId}}:${kind}`;
	}

	/** Runs one command; a failure names the Redis (never its password) and holds requests back. */
	private async run<T>(command: () => Promise<T>): Promise<T> {
		let failure: Error;
		try {
			if (this.redis.status === 'wait') this.connecting ??= this.redis.connect();
			await this.connecting;
			return await command();
		} catch (error) {
			failure = error as Error;
		}
		this.connecting = undefined;
		throw new RequestBudgetError(this.where, failure);
	}
}
