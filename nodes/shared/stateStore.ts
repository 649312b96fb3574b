import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
	INodeProperties,
} from 'n8n-workflow';

import { pingRedis, sharedRedisStore, type RedisCredential } from '../../runtime/stores/redis';
import { sharedSqliteStore } from '../../runtime/stores/sqlite';
import type { StateStore } from '../../runtime/stores/types';

/** Where delivery IDs, conversations and timers live; the same choice in every node. */
export function stateStoreProperty(what: string): INodeProperties {
	return {
		displayName: 'State Store',
		name: 'stateStore',
		type: 'options',
		noDataExpression: true,
		default: 'sqlite',
		options: [
			{
				name: 'SQLite File on This N8n',
				value: 'sqlite',
				description: "A file beside n8n's database: right for one n8n process",
			},
			{
				name: 'Redis (Queue Mode)',
				value: 'redis',
				description:
					'Shared by the main, webhook and worker processes of n8n queue mode; use the Redis queue mode runs on',
			},
		],
		description: `Where ${what} are kept`,
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
		description: `With the SQLite store: the file where ${what} are kept. Leave empty for the default beside n8n's database.`,
	};
}

/**
 * The store the node's parameters chose: one shared connection per file or Redis per process.
 * `getCredentials` is the node context's; the Redis credential is read only when it is needed.
 */
export async function openStateStore(
	kind: string,
	statePath: string,
	getCredentials: (type: string) => Promise<object>,
): Promise<StateStore> {
	if (kind === 'redis')
		return sharedRedisStore((await getCredentials('messagingBotRedisApi')) as RedisCredential);
	return sharedSqliteStore(statePath.trim() || undefined);
}

/** The Redis credential's test: connect and PING, with what went wrong in Redis's words. */
export async function messagingBotRedisPing(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const c = (credential.data ?? {}) as RedisCredential;
	const problem = await pingRedis(c);
	return problem === null
		? { status: 'OK', message: 'Connected: Redis answered PING' }
		: {
				status: 'Error',
				message: `Could not reach Redis at ${c.host || 'localhost'}:${c.port || 6379}: ${problem}`,
			};
}
