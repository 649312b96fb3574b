/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- end-to-end tooling: runs a real n8n, never loaded by n8n */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Redis } from 'ioredis';
import { PostgresStore } from '../../runtime/stores/postgres';
import { RedisStore } from '../../runtime/stores/redis';
import type { StateStore } from '../../runtime/stores/types';

import { prepareN8n, type ApiSettings, type Workflow } from '../../scripts/lib/demo-setup';
import {
	freePort,
	startN8n,
	waitForWebhook,
	type N8nOptions,
	type RunningN8n,
} from '../../scripts/lib/n8n-process';
import type { RunningEmulator } from '../emulator';
import { subscribe } from './core';
import { dropKeys } from './redis-keys';

// The machine's PostgreSQL (trust auth on loopback) and Redis: what n8n's queue mode runs on.
const PG = { host: '127.0.0.1', port: '5432', user: 'postgres' };
/**
 * The Redis database each queue-mode test file keeps its state and shared budget in. Each file
 * empties its own at start; files run two at a time, so none may share one with another (nor
 * with any other test that uses a Redis database by number).
 */
export const STATE_DBS = {
	mode: 8,
	kill: 9,
	budget: 10,
	bench: 11,
	pause: 13,
	pauseBudget: 14,
	pgRestart: 15,
	prefix: 1,
} as const;
const REDIS_CREDENTIAL_ID = 'mbRedisState0001';
const POSTGRES_CREDENTIAL_ID = 'mbPgState0000001';

/** The shared stores a queue-mode test runs on; each file runs once per store. */
export type StoreKind = 'redis' | 'postgres';
export const SHARED_STORES: StoreKind[] = (process.env.MB_QUEUE_STORES ?? 'redis,postgres')
	.split(',')
	.map((s) => s.trim() as StoreKind);
/** The schema the PostgreSQL store keeps its tables in (the credential's default). */
const PG_SCHEMA = 'messaging_bot';

export function psql(sql: string, database = 'postgres'): string {
	return execFileSync(
		'psql',
		['-h', PG.host, '-p', PG.port, '-U', PG.user, '-d', database, '-tAc', sql],
		// A report may read every execution of a run (hundreds of MB with their data).
		{ encoding: 'utf8', maxBuffer: 1024 ** 3 },
	).trim();
}

/**
 * The emulator's key allowed `limit` requests per `windowMs`, its budget shared by every n8n
 * process through Redis database `db`.
 */
export function sharedBudgetApi(
	emulator: RunningEmulator,
	{ limit, windowMs, db }: { limit: number; windowMs: number; db: number },
): ApiSettings {
	return {
		baseUrl: emulator.baseUrl,
		apiKey: emulator.apiKey,
		rateLimit: limit,
		rateWindowSeconds: windowMs / 1000,
		extra: { budgetScope: 'redis', redisHost: '127.0.0.1', redisPort: 6379, redisDatabase: db },
	};
}

/** Once `url` answers, the emulator's subscription to it for every message the bots receive. */
export async function subscribeToMessages(
	emulator: RunningEmulator,
	url: string,
	secret: string,
): Promise<void> {
	await waitForWebhook(url);
	await subscribe(emulator, url, ['message.received'], secret);
}

/** A workflow's Messaging Bot nodes keeping their state in Redis. */
export function onRedis(workflow: Workflow): Workflow {
	return onStore('redis', workflow);
}

/** A workflow's Messaging Bot nodes keeping their state in the shared store `kind`. */
export function onStore(kind: StoreKind, workflow: Workflow): Workflow {
	const credential =
		kind === 'redis'
			? { messagingBotRedisApi: { id: REDIS_CREDENTIAL_ID, name: 'Messaging Bot Redis' } }
			: {
					messagingBotPostgresApi: {
						id: POSTGRES_CREDENTIAL_ID,
						name: 'Messaging Bot PostgreSQL',
					},
				};
	const copy = structuredClone(workflow);
	for (const node of copy.nodes) {
		if (!node.type.startsWith('n8n-nodes-messaging-bot.')) continue;
		node.parameters.stateStore = kind;
		(node as { credentials?: Record<string, unknown> }).credentials = {
			...(node as { credentials?: Record<string, unknown> }).credentials,
			...credential,
		};
	}
	return copy;
}

export type QueueMode = {
	database: string;
	main: RunningN8n;
	workers: RunningN8n[];
	/** Webhook processors: they take production webhooks in and queue the executions. */
	webhooks: RunningN8n[];
	/** Starts worker i again (after a kill). */
	restartWorker(i: number): Promise<void>;
	/** The records of a namespace of the shared store, as the store keeps them (expired ones too). */
	records(namespace: string): Promise<StoredRecord[]>;
	/** How many claims of a namespace start with `prefix`. */
	claims(namespace: string, prefix: string): Promise<number>;
	/** The due index of a namespace: each key's mark (ms since the epoch). */
	dues(namespace: string): Promise<Record<string, number>>;
	/** The keys due now by the store's own query (the runtime's, as Run Due Work asks it). */
	dueByStore(namespace: string): Promise<string[]>;
	stop(): Promise<void>;
};

/** A record as the store keeps it: its version and its deadline (null: none) beside the value. */
type StoredRecord = { key: string; value: string; version: number; expires: number | null };

export type QueueOptions = {
	/** The Redis database of the Messaging Bot Redis credential; emptied first. */
	stateDb: number;
	/**
	 * The store the workflows were put on (`onStore`): Redis, or PostgreSQL (n8n's own database,
	 * schema messaging_bot, unless `postgres` names another server).
	 */
	store?: StoreKind;
	postgres?: { host: string; port: number; database: string };
	workers?: number;
	env?: Record<string, string>;
	webhookProcessors?: number;
	/** The port of the Redis the state store uses (default the machine's, 6379; n8n's queue stays there). */
	statePort?: number;
};

/** n8n in queue mode: a main process and `workers` workers on PostgreSQL and Redis. */
export async function startQueueMode(
	api: ApiSettings,
	secret: string,
	workflows: Workflow[],
	{
		stateDb,
		workers = 2,
		env: extraEnv = {},
		webhookProcessors = 0,
		statePort = 6379,
		...o
	}: QueueOptions,
): Promise<QueueMode> {
	const database = `mb_e2e_${process.pid}_${Date.now()}`;
	const userFolder = mkdtempSync(path.join(tmpdir(), 'mb-queue-'));
	psql(`CREATE DATABASE ${database}`);
	const state = new Redis({ host: '127.0.0.1', port: statePort, db: stateDb });
	await state.flushdb();
	await state.quit();
	const env = {
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: PG.host,
		DB_POSTGRESDB_PORT: PG.port,
		DB_POSTGRESDB_DATABASE: database,
		DB_POSTGRESDB_USER: PG.user,
		DB_POSTGRESDB_PASSWORD: '',
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: '6379',
		QUEUE_BULL_PREFIX: database,
		// n8n's own keys and channels apart from any other n8n's on this Redis, as the queue's are:
		// its cache holds each published workflow, which its triggers run, and CI runs two queue-mode
		// tests with the same workflow ID at once (redis-prefix.e2e.test.ts shows what sharing does).
		N8N_REDIS_KEY_PREFIX: database,
		...extraEnv,
	};
	const main: N8nOptions = {
		userFolder,
		port: await freePort(),
		brokerPort: await freePort(),
		env,
	};
	const pg = o.postgres ?? { host: PG.host, port: Number(PG.port), database };
	prepareN8n(main, api, secret, workflows, [
		{
			id: REDIS_CREDENTIAL_ID,
			name: 'Messaging Bot Redis',
			type: 'messagingBotRedisApi',
			data: { host: '127.0.0.1', port: statePort, database: stateDb, user: '', password: '' },
		},
		{
			id: POSTGRES_CREDENTIAL_ID,
			name: 'Messaging Bot PostgreSQL',
			type: 'messagingBotPostgresApi',
			data: pgStateCredential(pg),
		},
	]);
	const shared = sharedStoreReader(o.store ?? 'redis', stateDb, pg);
	const workerOptions: N8nOptions[] = [];
	for (let i = 0; i < workers; i++) {
		const port = await freePort();
		workerOptions.push({
			userFolder,
			port,
			brokerPort: await freePort(),
			env: { ...env, QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(port) },
		});
	}
	const running: QueueMode = {
		database,
		main: await startN8n(main),
		workers: [],
		webhooks: [],
		async restartWorker(i) {
			running.workers[i] = await startN8n(workerOptions[i], 180_000, 'worker');
		},
		...shared,
		async stop() {
			for (const w of [...running.webhooks, ...running.workers]) await w.stop();
			await running.main.stop();
			try {
				psql(`DROP DATABASE IF EXISTS ${database}`);
			} catch {
				// Left for the machine's next reset; the name says whose it was.
			}
			rmSync(userFolder, { recursive: true, force: true });
			// n8n sets its cache keys without expiry: gone with the n8n that made them.
			await dropKeys([env.N8N_REDIS_KEY_PREFIX, env.QUEUE_BULL_PREFIX]).catch(() => undefined);
		},
	};
	for (let i = 0; i < workers; i++) await running.restartWorker(i);
	for (let i = 0; i < webhookProcessors; i++) {
		const options = { userFolder, port: await freePort(), brokerPort: await freePort(), env };
		running.webhooks.push(await startN8n(options, 180_000, 'webhook'));
	}
	return running;
}

/** The Messaging Bot PostgreSQL credential's data the workers get, for a store opened here too. */
function pgStateCredential(pg: { host: string; port: number; database: string }) {
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
function sharedStoreReader(
	kind: StoreKind,
	stateDb: number,
	pg: { host: string; port: number; database: string },
): Pick<QueueMode, 'records' | 'claims' | 'dues' | 'dueByStore'> {
	if (kind === 'postgres') {
		const select = (sql: string) =>
			execFileSync(
				'psql',
				['-h', pg.host, '-p', String(pg.port), '-U', PG.user, '-d', pg.database, '-tAc', sql],
				{ encoding: 'utf8' },
			);
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
