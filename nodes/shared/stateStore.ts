import {
	NodeOperationError,
	type ICredentialsDecrypted,
	type ICredentialTestFunctions,
	type INode,
	type INodeCredentialTestResult,
	type INodeProperties,
} from 'n8n-workflow';

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

/**
 * The store the node's parameters chose: one shared connection per file or Redis per process.
 * `getCredentials` is the node context's; the Redis credential is read only when it is needed.
 * Each store's module (node:sqlite, ioredis) is loaded only when that store is chosen.
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
	const { sharedSqliteStore } = await import('../../runtime/stores/sqlite');
	return sharedSqliteStore(statePath.trim() || undefined);
}

/** What a node needs to open its store. */
interface StoreContext {
	getNode(): INode;
	getCredentials(type: string): Promise<object>;
}

/**
 * The store of a node: its State Store parameter and State File option. A store that cannot be
 * used here (SQLite on a Node.js without node:sqlite) fails as the node's error, saying what to do.
 */
export async function nodeStateStore(
	ctx: StoreContext,
	kind: string,
	statePath: unknown,
): Promise<StateStore> {
	try {
		return await openStateStore(
			kind,
			String(statePath ?? ''),
			async (type) => await ctx.getCredentials(type),
		);
	} catch (error) {
		throw new NodeOperationError(ctx.getNode(), error as Error);
	}
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
