// pg (node-postgres, bundled): the most used PostgreSQL client for Node.js, pure JavaScript,
// pooled, with parameters and named prepared statements; n8n's own Postgres node runs on it.
import { Pool, type PoolClient, type QueryResultRow } from 'pg';

import { StateStoreError } from './errors';
import { notConnected, retryable, storeFailure } from './postgres-errors';
import type { MarkerQuery, MarkerRow, PostgresMarker } from './postgres-marker';
import { postgresPoolConfig, postgresWhere, type PostgresCredential } from './postgres-options';
import {
	CLAIMED,
	MIGRATIONS,
	quoteIdentifier,
	statements,
	VERSION_TABLE,
	BATCHED,
	type StatementName,
} from './postgres-schema';
import { WriteBatcher, type Result } from './postgres-batch';

/** The error, when it broke the connection (anything but an answer of the server with a SQLSTATE). */
function brokenBy(error: unknown): Error | undefined {
	if (error === undefined) return undefined;
	// A failure already named: its cause tells.
	if (error instanceof StateStoreError) return brokenBy(error.cause ?? error.message);
	const code = (error as { code?: unknown }).code;
	return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? undefined : (error as Error);
}

// eslint-disable-next-line @n8n/community-nodes/no-restricted-globals -- runtime/ imports nothing from n8n: a pause between attempts to reach a server that is restarting
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long an operation keeps trying to connect (a server restarting), and how often. */
const CONNECT_PATIENCE_MS = 3_000;
const CONNECT_STEP_MS = 250;
/** Serialization failures and deadlocks: the statement was rolled back whole, so it runs again. */
const RETRIES = 5;
/** One lock key per schema for migrations (the first of pg_advisory_xact_lock's two keys). */
const MIGRATION_LOCK = 0x6d62; // "mb"

/**
 * The pool behind a PostgresStore: connecting (and waiting out a restart), the schema made ready
 * once per pool, every statement run by name with its parameters, failures named.
 */
export class PostgresPool {
	private pool: Pool;
	private ready: Promise<void> | null = null;
	private readonly sql: Record<StatementName, string>;
	private readonly schema: string;
	private tlsFallback = false;
	/** Connections the loss marker has checked. */
	private readonly checked = new WeakSet<PoolClient>();
	private readonly batcher = new WriteBatcher(
		async (batch) =>
			((await this.runAlone('batch', batch))?.rows[0] as { answers: unknown[] }).answers,
		(name, values) => this.runAlone(name as StatementName, values),
		brokenBy,
	);
	readonly where: string;

	constructor(
		private readonly credential: PostgresCredential,
		private readonly migrates = true,
		private readonly marker?: PostgresMarker,
	) {
		this.where = postgresWhere(credential);
		this.schema = quoteIdentifier(credential.schema || 'messaging_bot');
		this.sql = statements(this.schema);
		this.pool = this.newPool();
	}

	private newPool(): Pool {
		const pool = new Pool(postgresPoolConfig(this.credential, this.tlsFallback));
		// An idle connection the server closed (a restart) is dropped; its error must not crash n8n.
		pool.on('error', () => undefined);
		if (this.credential.flushEachWrite === false)
			pool.on('connect', (client) => {
				client.query('SET synchronous_commit = off').catch(() => undefined);
			});
		return pool;
	}

	/** A connection, the loss marker checked on it before its first statement. */
	private async connect(): Promise<PoolClient> {
		const client = await this.connectRaw();
		if (!this.marker || this.checked.has(client)) return client;
		try {
			await this.checkMarker(client);
			this.checked.add(client);
			return client;
		} catch (error) {
			client.release(brokenBy(error) ?? true);
			throw storeFailure(this.where, error);
		}
	}

	/** The marker's check; tables gone (a database made anew) are made again first, and so found. */
	private async checkMarker(client: PoolClient): Promise<void> {
		const query: MarkerQuery = async (name, values) =>
			(await client.query<MarkerRow>({ name, text: this.sql[name], values })).rows[0];
		try {
			await this.marker!.check(query);
		} catch (error) {
			if (!/^(42P01|3F000)$/.test(String((error as { code?: unknown }).code)) || !this.migrates)
				throw storeFailure(this.where, error);
			await this.migrate(client);
			await this.marker!.check(query);
		}
	}

	/** The marker follows a write (on any connection). */
	stampMarker(): void {
		this.marker?.stamp(async (name, values) => (await this.run<MarkerRow>(name, values))?.rows[0]);
	}

	/** The loss the marker found; a pool left with no connection (a restart) checks a new one. */
	async lostWrites() {
		if (!this.marker) return undefined;
		if (this.pool.totalCount === 0) await this.run('ping', []);
		await this.marker.settled();
		// A loss another process found (its writes were lost, this one's maybe not).
		await this.marker.shared(
			async (name, values) => (await this.run<MarkerRow>(name, values))?.rows[0],
		);
		return this.marker.lost;
	}

	/** A connection, waiting a little for a server that refuses or is starting up. */
	private async connectRaw(): Promise<PoolClient> {
		const deadline = Date.now() + CONNECT_PATIENCE_MS;
		for (;;) {
			try {
				return await this.pool.connect();
			} catch (error) {
				if (
					this.credential.ssl === 'allow' &&
					!this.tlsFallback &&
					/no encryption/.test(String(error))
				) {
					// "allow": the server insists on TLS, so TLS it is.
					this.tlsFallback = true;
					const old = this.pool;
					this.pool = this.newPool();
					void old.end().catch(() => undefined);
					continue;
				}
				if (!notConnected(error) || Date.now() >= deadline) throw storeFailure(this.where, error);
				await sleep(CONNECT_STEP_MS);
			}
		}
	}

	/** Runs a named statement, a write in the group commit; null when an append met a claimed id. */
	async run<R extends QueryResultRow>(
		name: StatementName,
		values: unknown[],
	): Promise<Result<R> | null> {
		if (!this.ready)
			this.ready = (this.migrates ? this.migrateOnce() : Promise.resolve()).catch(
				(error: unknown) => {
					this.ready = null;
					throw error;
				},
			);
		await this.ready;
		const result = Object.hasOwn(BATCHED, name)
			? await this.batcher.submit(name, values).catch((error: unknown) => {
					throw storeFailure(this.where, error);
				})
			: await this.runAlone(name, values);
		if (!name.startsWith('marker')) this.stampMarker();
		return result as Result<R> | null;
	}

	/** One statement on its own (its own transaction), serialization failures tried again. */
	private async runAlone(name: StatementName, values: unknown[]): Promise<Result | null> {
		for (let attempt = 1; ; attempt++) {
			const client = await this.connect();
			try {
				const result = await client.query({ name, text: this.sql[name], values });
				client.release();
				return { rows: result.rows, rowCount: result.rowCount ?? 0 };
			} catch (error) {
				// A connection that failed is not given back to the pool.
				client.release(brokenBy(error));
				if ((error as { code?: string }).code === CLAIMED) return null;
				if (!retryable(error) || attempt >= RETRIES) throw storeFailure(this.where, error);
				await sleep(attempt * 5 + Math.random() * 10);
			}
		}
	}

	/**
	 * Creates the schema's tables on first use, and runs the migrations it lacks. Workers starting
	 * at once queue on one advisory lock, held to the end of the transaction: the first runs them,
	 * the others then find them recorded. A schema at the latest version takes no lock at all
	 * (its tables may have been made by hand, by a user without CREATE rights).
	 */
	private async migrateOnce(): Promise<void> {
		const client = await this.connectRaw();
		let failure: unknown;
		try {
			await this.migrate(client);
		} catch (error) {
			failure = error;
		} finally {
			client.release(brokenBy(failure));
		}
		if (failure) throw storeFailure(this.where, failure);
	}

	private async migrate(client: PoolClient): Promise<void> {
		try {
			if ((await this.version(client)) >= MIGRATIONS.length) return;
			await client.query('BEGIN');
			await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [
				MIGRATION_LOCK,
				this.schema,
			]);
			await client.query(`CREATE SCHEMA IF NOT EXISTS ${this.schema}`);
			await client.query(`SET LOCAL search_path TO ${this.schema}`);
			await client.query(VERSION_TABLE(this.schema));
			const { rows } = await client.query<{ v: number }>(
				`SELECT coalesce(max(version), 0)::int AS v FROM ${this.schema}.schema_version`,
			);
			for (let i = rows[0].v; i < MIGRATIONS.length; i++) {
				await client.query(MIGRATIONS[i](this.schema));
				await client.query(`INSERT INTO ${this.schema}.schema_version (version) VALUES ($1)`, [
					i + 1,
				]);
			}
			await client.query('COMMIT');
		} catch (error) {
			await client.query('ROLLBACK').catch(() => undefined);
			throw storeFailure(this.where, error);
		}
	}

	/** The schema's version, 0 when it has no version table yet. */
	private async version(client: PoolClient): Promise<number> {
		const { rows } = await client.query<{ t: string | null }>('SELECT to_regclass($1) AS t', [
			`${this.schema}.schema_version`,
		]);
		if (!rows[0].t) return 0;
		const found = await client.query<{ v: number }>(
			`SELECT coalesce(max(version), 0)::int AS v FROM ${this.schema}.schema_version`,
		);
		return found.rows[0].v;
	}

	async end(): Promise<void> {
		await this.pool.end().catch(() => undefined);
	}
}
