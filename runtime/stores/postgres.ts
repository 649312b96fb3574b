import { Client } from 'pg';

import { WriteCounts } from './postgres-batch-counts';
import { storeFailure } from './postgres-errors';
import {
	postgresPoolConfig,
	postgresSchema,
	postgresWhere,
	type PostgresCredential,
} from './postgres-options';
import { PostgresPool } from './postgres-pool';
import { PostgresMarker } from './postgres-marker';
import { ReadBatcher, type ConversationRow } from './postgres-reads';
import { checkSchemaName } from './postgres-schema';
import type { LostWrites } from './loss';
import { sharedStores } from './shared';
import { SweepSchedule } from './sweep-schedule';
import type { CounterHash, QueuedEntry, StateStore, Versioned, WriteOptions } from './types';
import type { ConversationAt, ConversationRead } from './reads';

/**
 * A durable store in PostgreSQL, shared by every n8n process that reaches the database (main,
 * webhook and worker processes of queue mode). Each operation is one statement (the compound ones
 * call a function of the store's schema, see postgres-schema.ts), so it is one round trip and one
 * transaction: a claim, a compare-and-set with its due mark, dequeued entries and counts, or an
 * append with its claims, is all done or none, and committed (flushed to the server's disk, as
 * PostgreSQL commits by default) before its promise resolves.
 */
export class PostgresStore implements StateStore {
	private readonly db: PostgresPool;
	/** Writes under way: a read of the counters waits for those begun before it. */
	private readonly writing = new Set<Promise<unknown>>();
	private sweeping: Promise<unknown> | null = null;
	private readonly sweeps: SweepSchedule;
	private readonly marker?: PostgresMarker;
	private readonly reads = new ReadBatcher(
		async (name, values) => (await this.db.run<ConversationRow>(name, values))?.rows ?? [],
		() => this.now(),
	);

	/** `migrate: false`: the tables are used as they are, never made (a reader's open). */
	constructor(
		credential: PostgresCredential,
		private readonly now: () => number = () => Date.now(),
		options: { migrate?: boolean } = {},
	) {
		const migrate = options.migrate ?? true;
		this.sweeps = new SweepSchedule(now());
		// A reader writes nothing: it keeps no marker.
		this.marker = migrate ? new PostgresMarker(now) : undefined;
		this.db = new PostgresPool(
			{ ...credential, schema: postgresSchema(credential) },
			migrate,
			this.marker,
		);
	}

	/** host:port and database, for errors a user can act on (never the password). */
	get where(): string {
		return this.db.where;
	}

	async claim(namespace: string, id: string, ttlMs: number): Promise<boolean> {
		const now = this.now();
		const result = await this.db.run('claim', [namespace, id, now + ttlMs, now]);
		return result?.rowCount === 1;
	}

	async release(namespace: string, id: string): Promise<void> {
		await this.db.run('release', [namespace, id]);
	}

	async read(namespace: string, key: string): Promise<Versioned | undefined> {
		const result = await this.db.run<{ value: string; version: string }>('read', [
			namespace,
			key,
			this.now(),
		]);
		const row = result?.rows[0];
		return row ? { value: row.value, version: Number(row.version) } : undefined;
	}

	async write(
		namespace: string,
		key: string,
		value: string,
		expectedVersion: number,
		options: WriteOptions = {},
	): Promise<number | null> {
		const now = this.now();
		const due = options.dueAt;
		const taken = options.dequeue;
		const counted = options.counters;
		const written = this.db.run<{ version: string | null }>('write', [
			namespace,
			key,
			value,
			expectedVersion,
			now,
			options.expiresAt ?? null,
			due === undefined ? 0 : due === null ? 1 : 2,
			due ?? null,
			taken?.namespace ?? null,
			taken?.queue ?? null,
			taken ? taken.seqs : null,
			counted?.namespace ?? null,
			counted ? new WriteCounts(counted.hashes) : null,
		]);
		this.writing.add(written);
		try {
			const version = (await written)?.rows[0]?.version;
			if (version !== null && version !== undefined && this.sweeps.due(now)) this.sweep(now);
			return version === null || version === undefined ? null : Number(version);
		} finally {
			this.writing.delete(written);
		}
	}

	/** Now and then, off the caller's path: what expired is deleted. */
	private sweep(now: number): void {
		this.sweeping ??= this.db
			.run('sweep', [now])
			.catch(() => undefined)
			.finally(() => (this.sweeping = null));
	}

	async remove(namespace: string, key: string, expectedVersion: number): Promise<boolean> {
		const result = await this.db.run<{ n: number }>('remove', [
			namespace,
			key,
			this.now(),
			expectedVersion,
		]);
		return result?.rows[0]?.n === 1;
	}

	async setDue(namespace: string, key: string, dueAt: number | null): Promise<void> {
		if (dueAt === null) await this.db.run('clearDue', [namespace, key]);
		else await this.db.run('setDue', [namespace, key, dueAt]);
	}

	async dropDue(namespace: string, key: string): Promise<void> {
		await this.db.run('dropDue', [namespace, key, this.now()]);
	}

	async due(namespace: string, now: number, limit: number): Promise<string[]> {
		const result = await this.db.run<{ key: string }>('due', [namespace, now, limit]);
		return (result?.rows ?? []).map((r) => r.key);
	}

	async enqueue(
		namespace: string,
		queue: string,
		ids: readonly string[],
		value: string,
		ttlMs: number,
	): Promise<number | null> {
		const now = this.now();
		// Sorted: appends sharing ids claim them in one order, so none waits on another in a cycle.
		const claims = [...new Set(ids)].sort();
		const result = await this.db.run<{ seq: string | null }>('enqueue', [
			namespace,
			queue,
			claims,
			value,
			now,
			now + ttlMs,
		]);
		const seq = result?.rows[0]?.seq;
		return seq === null || seq === undefined ? null : Number(seq);
	}

	async queued(namespace: string, queue: string, limit: number): Promise<QueuedEntry[]> {
		return entries(await this.db.run('queued', [namespace, queue, limit]));
	}

	/**
	 * One statement: the record and the inbox from one snapshot, in one round trip; reads issued
	 * together share one (postgres-reads.ts).
	 */
	async readConversation(at: ConversationAt): Promise<ConversationRead> {
		return await this.reads.read(at);
	}

	async take(namespace: string, queue: string, limit: number): Promise<QueuedEntry[]> {
		return entries(await this.db.run('take', [namespace, queue, limit])).sort(
			(a, b) => a.seq - b.seq,
		);
	}

	async dequeue(namespace: string, queue: string, seqs: readonly number[]): Promise<void> {
		if (seqs.length > 0) await this.db.run('dequeue', [namespace, queue, seqs]);
	}

	async stalled(namespace: string, before: number, limit: number): Promise<string[]> {
		const result = await this.db.run<{ queue: string }>('stalled', [namespace, before, limit]);
		return (result?.rows ?? []).map((r) => r.queue);
	}

	async counters(namespace: string, prefix: string): Promise<CounterHash[]> {
		await Promise.allSettled([...this.writing]);
		const result = await this.db.run<{ key: string; field: string; value: string }>('counters', [
			namespace,
			prefix,
			this.now(),
		]);
		const byKey = new Map<string, Record<string, number>>();
		for (const row of result?.rows ?? []) {
			let fields = byKey.get(row.key);
			if (!fields) byKey.set(row.key, (fields = {}));
			fields[row.field] = Number(row.value);
		}
		return [...byKey].map(([key, fields]) => ({ key, fields }));
	}

	async noteActive(namespace: string, key: string, at: number, ttlMs: number): Promise<void> {
		await this.db.run('noteActive', [namespace, key, at, at + ttlMs]);
	}

	async active(namespace: string, since: number, limit: number): Promise<string[]> {
		const result = await this.db.run<{ key: string }>('active', [
			namespace,
			since,
			this.now(),
			limit,
		]);
		return (result?.rows ?? []).map((r) => r.key);
	}

	/**
	 * PostgreSQL keeps every write it acknowledged (Flush Each Write to Disk on), so a crash loses
	 * none; a database or schema put back from an older backup is found by the loss marker
	 * (postgres-marker.ts), checked on each new connection.
	 */
	async lostWrites(): Promise<LostWrites | undefined> {
		return await this.db.lostWrites();
	}

	async close(): Promise<void> {
		await this.sweeping;
		this.marker?.stop();
		await this.db.end();
	}
}

function entries(
	result: { rows: Array<{ seq: string; value: string; at: string }> } | null,
): QueuedEntry[] {
	return (result?.rows ?? []).map((r) => ({
		seq: Number(r.seq),
		value: r.value,
		at: Number(r.at),
	}));
}

const shared = sharedStores(
	(c: PostgresCredential) =>
		JSON.stringify({ ...postgresPoolConfig(c), schema: postgresSchema(c) }),
	(c: PostgresCredential) => new PostgresStore(c),
);

/** One pool per server, database, user and schema for the whole process. */
export const sharedPostgresStore = (c: PostgresCredential): PostgresStore => shared.get(c);

export const closeSharedPostgresStores = (): Promise<void> => shared.closeAll();

/** Connects once and runs SELECT 1: the credential test. Resolves to an error message, or null. */
export async function pingPostgres(c: PostgresCredential): Promise<string | null> {
	try {
		checkSchemaName(postgresSchema(c));
	} catch (error) {
		return (error as Error).message;
	}
	let failure = await selectOne(c, false);
	// SSL "allow": a server that insists on TLS gets it, as the store's connections do.
	if (c.ssl === 'allow' && /no encryption/.test(String(failure)))
		failure = await selectOne(c, true);
	return failure === undefined ? null : storeFailure(postgresWhere(c), failure).message;
}

async function selectOne(c: PostgresCredential, tls: boolean): Promise<unknown> {
	const client = new Client({ ...postgresPoolConfig(c, tls), connectionTimeoutMillis: 5_000 });
	client.on('error', () => undefined);
	try {
		await client.connect();
		await client.query('SELECT 1');
		return undefined;
	} catch (error) {
		return error;
	} finally {
		await client.end().catch(() => undefined);
	}
}
