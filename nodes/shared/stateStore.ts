import {
	NodeOperationError,
	type ICredentialsDecrypted,
	type ICredentialTestFunctions,
	type INode,
	type INodeCredentialTestResult,
	type INodeProperties,
} from 'n8n-workflow';

import type { PostgresCredential } from '../../runtime/stores/postgres-options';
import type { RedisStore } from '../../runtime/stores/redis';
import type { RedisCredential } from '../../runtime/stores/redis-options';
import type { StateStore } from '../../runtime/stores/types';

/** Where delivery IDs, conversations and timers live; the same choice in every node. */
export function stateStoreProperty(what: string): INodeProperties {
	return {
		displayName: 'Storage',
		name: 'stateStore',
		type: 'options',
		noDataExpression: true,
		default: 'sqlite',
		options: [
			{
				name: 'File on This Server (Default)',
				value: 'sqlite',
				description: "A file beside n8n's own data: right unless n8n runs in queue mode",
			},
			{
				name: 'Redis (for Queue Mode)',
				value: 'redis',
				description:
					'For n8n in queue mode (several processes): every process then sees the same data. Use the Redis the queue runs on.',
			},
			{
				name: 'PostgreSQL (for Queue Mode)',
				value: 'postgres',
				description:
					"For n8n in queue mode: every process sees the same data, and what was saved survives a crash of the database server. n8n's own PostgreSQL will do.",
			},
		],
		description: `Where ${what} are kept. Keep the default unless n8n runs in queue mode.`,
	};
}

/** The SQLite file option of a node's Options collection. */
export function statePathOption(what: string): INodeProperties {
	return {
		displayName: 'State File',
		name: 'statePath',
		type: 'string',
		default: '',
		placeholder: '~/.n8n/messaging-bot/state.sqlite',
		description: `With storage in a file: the file where ${what} are kept. Leave empty for the default, beside n8n's own data.`,
	};
}

/** The option that refuses a Redis that can lose acknowledged writes (in the same collection). */
export function refuseLossyRedisOption(): INodeProperties {
	return {
		displayName: 'Refuse a Redis That Can Lose Writes',
		name: 'refuseLossyRedis',
		type: 'boolean',
		default: false,
		description:
			'Whether to fail instead of using a Redis whose crash loses writes it acknowledged (no append-only file with fsync on every write). Off, the node says once what such a crash loses and rebuilds lost conversations from the message history.',
	};
}

/** Said once per process: in n8n's log (`logged`), and on a Scenario node's output (`shown`). */
const logged = new Set<string>();
const toShow: string[] = [];

/** What the stores opened in this process have to say that no output has shown yet, once. */
export function takeStoreNotices(): string[] {
	return toShow.splice(0);
}

function sayOnce(ctx: StoreContext, notice: string): void {
	if (logged.has(notice)) return;
	logged.add(notice);
	ctx.logger?.warn(`Messaging Bot: ${notice}`);
	toShow.push(notice);
}

/**
 * What a Redis store says at connect (what a crash of it loses; a loss of writes it found), and
 * its refusal when the node asks for a Redis that loses nothing.
 */
async function checkStore(ctx: StoreContext, store: StateStore, refuseLossy: boolean) {
	const redis = store as Partial<RedisStore>;
	if (typeof redis.crashLoss !== 'function') return;
	const { persistenceWarning } = await import('../../runtime/stores/redis-persistence');
	const loss = await redis.crashLoss();
	if (loss) {
		const warning = persistenceWarning(redis.where ?? 'Redis', loss);
		if (refuseLossy)
			throw new NodeOperationError(ctx.getNode(), `Refused: ${warning}`, {
				description:
					'Refuse a Redis That Can Lose Writes is on. Run Redis with appendonly yes and appendfsync always, or turn the option off.',
			});
		sayOnce(ctx, warning);
	}
	const { lossNotice } = await import('../../runtime/stores/loss');
	// Said when found, also in a process that runs only a trigger (n8n's main in queue mode).
	if (!listening.has(store) && typeof redis.onLoss === 'function') {
		listening.add(store);
		redis.onLoss((loss) => sayOnce(ctx, lossNotice(redis.where ?? 'Redis', loss)));
	}
	const lost = await store.lostWrites();
	if (lost) sayOnce(ctx, lossNotice(redis.where ?? 'Redis', lost));
}

/** Stores whose losses are said as they are found. */
const listening = new WeakSet<StateStore>();

/**
 * The store the node's parameters chose: one shared connection per file or Redis per process.
 * `getCredentials` is the node context's; the Redis credential is read only when it is needed.
 * Each store's module (node:sqlite, ioredis, pg) is loaded only when that store is chosen.
 */
async function openStateStore(
	kind: string,
	statePath: string,
	getCredentials: (type: string) => Promise<object>,
): Promise<StateStore> {
	if (kind === 'redis') {
		const { sharedRedisStore } = await import('../../runtime/stores/redis');
		return sharedRedisStore((await getCredentials('messagingBotRedisApi')) as RedisCredential);
	}
	if (kind === 'postgres') {
		const { sharedPostgresStore } = await import('../../runtime/stores/postgres');
		return sharedPostgresStore(
			(await getCredentials('messagingBotPostgresApi')) as PostgresCredential,
		);
	}
	const { sharedSqliteStore } = await import('../../runtime/stores/sqlite');
	return sharedSqliteStore(statePath.trim() || undefined);
}

/** What a node needs to open its store. */
interface StoreContext {
	getNode(): INode;
	getCredentials(type: string): Promise<object>;
	logger?: { warn(message: string): void };
}

/**
 * The store of a node: its State Store parameter and State File option. A store that cannot be
 * used here (SQLite on a Node.js without node:sqlite) fails as the node's error, saying what to do.
 */
export async function nodeStateStore(
	ctx: StoreContext,
	kind: string,
	statePath: unknown,
	refuseLossy: unknown = false,
): Promise<StateStore> {
	let store: StateStore;
	try {
		store = await openStateStore(
			kind,
			String(statePath ?? ''),
			async (type) => await ctx.getCredentials(type),
		);
	} catch (error) {
		throw new NodeOperationError(ctx.getNode(), error as Error);
	}
	await checkStore(ctx, store, refuseLossy === true);
	return store;
}

/** The Redis credential's test: connect and PING, with what went wrong in Redis's words. */
export async function messagingBotRedisPing(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const c = (credential.data ?? {}) as RedisCredential;
	const { pingRedis } = await import('../../runtime/stores/redis');
	const problem = await pingRedis(c);
	return problem === null
		? { status: 'OK', message: 'Connected: Redis answered PING' }
		: {
				status: 'Error',
				message: `Could not reach Redis at ${c.host || 'localhost'}:${c.port || 6379}: ${problem}`,
			};
}

/** The PostgreSQL credential's test: connect and SELECT 1, with what went wrong in words. */
export async function messagingBotPostgresPing(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const c = (credential.data ?? {}) as PostgresCredential;
	const { pingPostgres } = await import('../../runtime/stores/postgres');
	const problem = await pingPostgres(c);
	return problem === null
		? { status: 'OK', message: 'Connected: PostgreSQL answered SELECT 1' }
		: { status: 'Error', message: problem };
}
