import { Redis } from 'ioredis';
import { PostgresStore } from '../../runtime/stores/postgres';
import { RedisStore } from '../../runtime/stores/redis';
import type { StateStore } from '../../runtime/stores/types';
import { psqlAt } from './psql';

// The machine's PostgreSQL (trust auth on loopback) and Redis: what n8n's queue mode runs on.
export const PG = { host: '127.0.0.1', port: '5432', user: 'postgres' };
/** The schema the PostgreSQL store keeps its tables in (the credential's default). */
const PG_SCHEMA = 'messaging_bot';

export type StoreKind = 'redis' | 'postgres';

/** A record as the store keeps it: its version and its deadline (null: none) beside the value. */
type StoredRecord = { key: string; value: string; version: number; expires: number | null };

/** What a test reads of the shared store the workers keep their state in. */
export interface SharedStoreReader {
	/** The records of a namespace of the shared store, as the store keeps them (expired ones too). */
	records(namespace: string): Promise<StoredRecord[]>;
	/** How many claims of a namespace start with `prefix`. */
	claims(namespace: string, prefix: string): Promise<number>;
	/** The due index of a namespace: each key's mark (ms since the epoch). */
	dues(namespace: string): Promise<Record<string, number>>;
	/** The keys due now by the store's own query (the runtime's, as Run Due Work asks it). */
	dueByStore(namespace: string): Promise<string[]>;
}

/** The Messaging Bot PostgreSQL credential's data the workers get, for a store opened here too. */
export function pgStateCredential(pg: { host: string; port: number; database: string }) {
	return { ...pg, user: PG.user, password: '', ssl: 'disable' as const, schema: PG_SCHEMA };
}

/** The keys `store` finds due now, by the query Run Due Work makes; the store closed after. */
async function dueNow(store: StateStore, namespace: string): Promise<string[]> {
	try {
		return await store.due(namespace, Date.now(), 500);
	} finally {
		await store.close();
	}
}

/** Reads what the store kept, straight from Redis or from the PostgreSQL tables. */
export function sharedStoreReader(
	kind: StoreKind,
	stateDb: number,
	pg: { host: string; port: number; database: string },
): SharedStoreReader {
	if (kind === 'postgres') {
		const select = (sql: string) => psqlAt(pg, pg.database, sql);
		// JSON out, so values with any characters come back whole; the namespace is a test's own.
		const quoted = (text: string) => `'${text.replace(/'/g, "''")}'`;
		return {
			async records(namespace) {
				const out = select(
					`SELECT coalesce(json_agg(json_build_object('key', key, 'value', value, 'version', version, 'expires', expires)), '[]') FROM ${PG_SCHEMA}.records WHERE ns = ${quoted(namespace)}`,
				);
				return JSON.parse(out) as StoredRecord[];
			},
			async claims(namespace, prefix) {
				return Number(
					select(
						`SELECT count(*) FROM ${PG_SCHEMA}.claims WHERE ns = ${quoted(namespace)} AND starts_with(id, ${quoted(prefix)})`,
					),
				);
			},
			dueByStore: async (namespace) =>
				await dueNow(
					new PostgresStore(pgStateCredential(pg), undefined, { migrate: false }),
					namespace,
				),
			async dues(namespace) {
				const out = select(
					`SELECT coalesce(json_object_agg(key, due), '{}') FROM ${PG_SCHEMA}.dues WHERE ns = ${quoted(namespace)}`,
				);
				return JSON.parse(out) as Record<string, number>;
			},
		};
	}
	const at = (namespace: string, kind: string) => `messaging-bot:{${namespace}}:${kind}:`;
	const withRedis = async <T>(work: (redis: Redis) => Promise<T>): Promise<T> => {
		const redis = new Redis({ host: '127.0.0.1', port: 6379, db: stateDb });
		try {
			return await work(redis);
		} finally {
			await redis.quit();
		}
	};
	return {
		records: (namespace) =>
			withRedis(async (redis) => {
				const prefix = at(namespace, 'record');
				const records: StoredRecord[] = [];
				for (const key of await redis.keys(`${prefix}*`)) {
					const [value, version, expires] = await redis.hmget(key, 'value', 'version', 'expires');
					if (value === null) continue;
					const deadline = expires === null ? null : Number(expires);
					records.push({
						key: key.slice(prefix.length),
						value,
						version: Number(version),
						expires: deadline,
					});
				}
				return records;
			}),
		claims: (namespace, prefix) =>
			withRedis(async (redis) => (await redis.keys(`${at(namespace, 'claim')}${prefix}*`)).length),
		dueByStore: async (namespace) =>
			await dueNow(new RedisStore({ host: '127.0.0.1', port: 6379, db: stateDb }), namespace),
		dues: (namespace) =>
			withRedis(async (redis) => {
				const flat = await redis.zrange(at(namespace, 'due').slice(0, -1), '0', '-1', 'WITHSCORES');
				const dues: Record<string, number> = {};
				for (let i = 0; i < flat.length; i += 2) dues[flat[i]] = Number(flat[i + 1]);
				return dues;
			}),
	};
}
