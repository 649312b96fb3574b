/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- end-to-end tooling: runs a real n8n, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Redis } from 'ioredis';

import { prepareN8n, type ApiSettings, type Workflow } from '../../scripts/lib/demo-setup';
import { migratedPostgresTemplate } from '../../scripts/lib/n8n-database';
import {
	freePort,
	startN8n,
	waitForWebhook,
	type N8nOptions,
	type RunningN8n,
} from '../../scripts/lib/n8n-process';
import type { RunningEmulator } from '../emulator';
import { subscribe } from './core';
import { psqlAt } from './psql';
import { dropKeys } from './redis-keys';
import {
	PG,
	pgStateCredential,
	sharedStoreReader,
	type SharedStoreReader,
	type StoreKind,
} from './shared-store-reader';

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
export type { StoreKind };
export const SHARED_STORES: StoreKind[] = (process.env.MB_QUEUE_STORES ?? 'redis,postgres')
	.split(',')
	.map((s) => s.trim() as StoreKind);

export function psql(sql: string, database = 'postgres'): string {
	return psqlAt(PG, database, sql);
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

export type QueueMode = SharedStoreReader & {
	database: string;
	main: RunningN8n;
	workers: RunningN8n[];
	/** Webhook processors: they take production webhooks in and queue the executions. */
	webhooks: RunningN8n[];
	/** Starts worker i again (after a kill). */
	restartWorker(i: number): Promise<void>;
	stop(): Promise<void>;
};

export type QueueOptions = {
	/** The Redis database of the Messaging Bot Redis credential; emptied first when `store` is Redis. */
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

/** n8n's connection to the machine's PostgreSQL, its database apart. */
const PG_ENV = {
	DB_POSTGRESDB_HOST: PG.host,
	DB_POSTGRESDB_PORT: PG.port,
	DB_POSTGRESDB_USER: PG.user,
	DB_POSTGRESDB_PASSWORD: '',
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
	psql(`CREATE DATABASE ${database} TEMPLATE ${migratedPostgresTemplate(psql, PG_ENV)}`);
	// Emptied only for a store kept there: another n8n may be using it (side by side, or before).
	if ((o.store ?? 'redis') === 'redis') {
		const state = new Redis({ host: '127.0.0.1', port: statePort, db: stateDb });
		await state.flushdb();
		await state.quit();
	}
	const env = queueEnv(database, extraEnv);
	const main: N8nOptions = {
		userFolder,
		port: await freePort(),
		brokerPort: await freePort(),
		env,
	};
	const pg = o.postgres ?? { host: PG.host, port: Number(PG.port), database };
	prepareN8n(main, api, secret, workflows, storeCredentials(statePort, stateDb, pg));
	const shared = sharedStoreReader(o.store ?? 'redis', stateDb, pg);
	const workerOptions = await helperOptions(workers, userFolder, env, true);
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
	// Workers and webhook processors start side by side: none runs migrations (main has).
	const webhookOptions = await helperOptions(webhookProcessors, userFolder, env, false);
	await Promise.all([
		...workerOptions.map(async (_, i) => await running.restartWorker(i)),
		...webhookOptions.map(async (options, i) => {
			running.webhooks[i] = await startN8n(options, 180_000, 'webhook');
		}),
	]);
	return running;
}

/** The environment of every process of one queue-mode n8n: its own database and Redis keys. */
function queueEnv(database: string, extraEnv: Record<string, string>): Record<string, string> {
	return {
		DB_TYPE: 'postgresdb',
		...PG_ENV,
		DB_POSTGRESDB_DATABASE: database,
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
}

/** The state stores' credentials the workflows use: Redis (database `stateDb`) and PostgreSQL. */
function storeCredentials(
	statePort: number,
	stateDb: number,
	pg: Parameters<typeof pgStateCredential>[0],
) {
	return [
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
	];
}

/** Options of `count` workers (with their health check on their port) or webhook processors. */
async function helperOptions(
	count: number,
	userFolder: string,
	env: Record<string, string>,
	worker: boolean,
): Promise<N8nOptions[]> {
	const options: N8nOptions[] = [];
	for (let i = 0; i < count; i++) {
		const port = await freePort();
		const health = { QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(port) };
		options.push({
			userFolder,
			port,
			brokerPort: await freePort(),
			env: worker ? { ...env, ...health } : env,
		});
	}
	return options;
}
