// ioredis (bundled): the Redis client n8n's own queue mode uses.
import { Redis, type RedisOptions } from 'ioredis';

import { getOrCreate } from '../per-process';
import { redisCause, StateStoreError, storeError } from './errors';
import type { LostWrites } from './loss';
import { LossMarker, LostAnswer, unlessLost } from './redis-marker';
import { redisOptions, type RedisCredential } from './redis-options';
import { crashLoss, readPersistence } from './redis-persistence';
import { readCounters } from './redis-counters';
import { writeCall } from './redis-write';
import {
	liveRecord,
	parseMember,
	pipelined,
	RECORD_FIELDS,
	scripted,
	type Scripted,
} from './redis-scripts';
import type { CounterHash, QueuedEntry, StateStore, Versioned, WriteOptions } from './types';
import type { ConversationAt, ConversationRead } from './reads';

export class RedisStore implements StateStore {
	private readonly redis: Scripted;
	private readonly marker: LossMarker;
	private persistence?: Promise<string | undefined>;

	/** host:port and database, for errors a user can act on (never the password). */
	readonly where: string;

	constructor(
		connection: RedisOptions | string,
		private readonly prefix = 'messaging-bot',
		private readonly now: () => number = () => Date.now(),
	) {
		const redis = scripted(
			typeof connection === 'string'
				? new Redis(connection, { lazyConnect: true, maxRetriesPerRequest: 3 })
				: new Redis({ lazyConnect: true, maxRetriesPerRequest: 3, ...connection }),
		);
		// Errors surface on the commands that fail; an unhandled 'error' event would crash n8n.
		redis.on('error', () => undefined);
		this.redis = redis;
		this.marker = new LossMarker(redis, `${prefix}:{~marker}:store`, now);
		this.where = `${redis.options.host ?? 'localhost'}:${redis.options.port ?? 6379} database ${redis.options.db ?? 0}`;
	}

	/**
	 * Runs one command; a failure says which Redis, the cause in words, and what to do. A command
	 * answered on a connection made after it was sent (it waited in the client's queue while Redis
	 * was down, or was sent again after a reconnect) may have been answered by a Redis that came
	 * back without writes, before the marker's check: its answer waits for that check, and is
	 * refused if the check found a loss (the caller reads again, knowing it).
	 */
	private async run<T>(command: () => Promise<T>, finding = false): Promise<T> {
		try {
			await this.marker.ready();
			const { connection, lost } = this.marker;
			const result = await command();
			// (The commands that find the loss are answered whatever they find.)
			if (this.marker.connection !== connection && !finding) {
				await this.marker.gate;
				if (this.marker.lost !== lost) throw new LostAnswer();
			}
			this.marker.touch();
			return result;
		} catch (error) {
			// Refused by a write's guard: the check finds the loss before the caller reads again.
			if (error instanceof LostAnswer) await this.marker.recheck();
			throw this.failure(error as Error);
		}
	}

	/** Writes this Redis acknowledged and came back without, once found (at a reconnect). */
	async lostWrites(): Promise<LostWrites | undefined> {
		// Connected: the marker was checked on connecting. Otherwise connect (and check) first.
		if (this.redis.status !== 'ready' || this.marker.gate)
			await this.run(() => this.redis.ping(), true);
		// A loss another process found (its writes were lost, this one's maybe not).
		await this.run(() => this.marker.shared(), true);
		return this.marker.lost;
	}

	/** Told each loss found, as it is found. */
	onLoss(listener: (loss: LostWrites) => void): void {
		this.marker.onLoss(listener);
	}

	/** What a crash of this Redis loses of what it acknowledged (undefined: nothing), read once. */
	async crashLoss(): Promise<string | undefined> {
		this.persistence ??= this.run(() => readPersistence(this.redis)).then(crashLoss);
		return await this.persistence;
	}

	private failure(error: Error): StateStoreError {
		if (error instanceof StateStoreError) return error;
		const store = { kind: 'Redis' as const, where: this.where };
		if (error instanceof LostAnswer) return storeError(store, 'lost data', error.message);
		return storeError(store, redisCause(error), error.message, error);
	}

	/** Keys hash-tagged by namespace, so one namespace stays in one slot of a cluster. */
	private key(kind: string, namespace: string, id?: string): string {
		return `${this.prefix}:{${namespace}}:${kind}${id === undefined ? '' : `:${id}`}`;
	}

	async claim(namespace: string, id: string, ttlMs: number): Promise<boolean> {
		const now = this.now();
		const ttl = Math.max(1, Math.ceil(ttlMs));
		return (
			(await this.run(() =>
				this.redis.mbClaim(this.key('claim', namespace, id), now, now + ttl, ttl),
			)) === 1
		);
	}

	async release(namespace: string, id: string): Promise<void> {
		await this.run(() => this.redis.del(this.key('claim', namespace, id)));
	}

	async read(namespace: string, key: string): Promise<Versioned | undefined> {
		const fields = await this.run(() =>
			this.redis.hmget(this.key('record', namespace, key), ...RECORD_FIELDS),
		);
		return liveRecord(fields, this.now());
	}

	async write(
		namespace: string,
		key: string,
		value: string,
		expectedVersion: number,
		options: WriteOptions = {},
	): Promise<number | null> {
		const version = await this.run(async () => {
			const w = { namespace, key, value, expectedVersion, now: this.now() };
			const { keys, args } = writeCall(this.key.bind(this), w, options, this.marker.guard());
			return unlessLost(await this.redis.mbWrite(keys.length, ...keys, ...args));
		});
		return version < 0 ? null : version;
	}

	async remove(namespace: string, key: string, expectedVersion: number): Promise<boolean> {
		const removed = await this.run(async () => {
			const [marker, guard] = this.marker.guard() ?? [];
			const keys = [this.key('record', namespace, key), this.key('due', namespace)];
			if (marker) keys.push(marker);
			return unlessLost(
				await this.redis.mbRemove(keys.length, ...keys, expectedVersion, key, guard ?? ''),
			);
		});
		return removed === 1;
	}

	async setDue(namespace: string, key: string, dueAt: number | null): Promise<void> {
		if (dueAt === null) await this.run(() => this.redis.zrem(this.key('due', namespace), key));
		else await this.run(() => this.redis.zadd(this.key('due', namespace), dueAt, key));
	}

	async dropDue(namespace: string, key: string): Promise<void> {
		const keys = [this.key('record', namespace, key), this.key('due', namespace)] as const;
		await this.run(() => this.redis.mbDropDue(...keys, key, this.now()));
	}

	async due(namespace: string, now: number, limit: number): Promise<string[]> {
		// Sorted by due time, then by key for equal times (Redis orders equal scores by member).
		return await this.run(() =>
			this.redis.zrangebyscore(this.key('due', namespace), '-inf', now, 'LIMIT', 0, limit),
		);
	}

	async enqueue(
		namespace: string,
		queue: string,
		ids: readonly string[],
		value: string,
		ttlMs: number,
	): Promise<number | null> {
		const ttl = Math.max(1, Math.ceil(ttlMs));
		const keys = [
			this.key('inbox', namespace, queue),
			this.key('inbox-heads', namespace),
			this.key('inbox-seq', namespace),
			...ids.map((id) => this.key('claim', namespace, id)),
		];
		const seq = await this.run(() =>
			this.redis.mbEnqueue(keys.length, ...keys, this.now(), ttl, value, queue),
		);
		return seq < 0 ? null : seq;
	}

	async queued(namespace: string, queue: string, limit: number): Promise<QueuedEntry[]> {
		const members = await this.run(() =>
			this.redis.zrange(this.key('inbox', namespace, queue), '0', String(limit - 1)),
		);
		return members.map(parseMember);
	}

	/** One pipeline, one round trip: the inbox first, then the record (Redis runs them in order). */
	async readConversation(at: ConversationAt): Promise<ConversationRead> {
		const { recordNamespace, key, inboxNamespace, queue, limit } = at;
		const [members, fields] = await this.run(async () =>
			pipelined<[string[], Array<string | null>]>(
				await this.redis
					.pipeline()
					.zrange(this.key('inbox', inboxNamespace, queue), '0', String(limit - 1))
					.hmget(this.key('record', recordNamespace, key), ...RECORD_FIELDS)
					.exec(),
			),
		);
		return { queued: members.map(parseMember), record: liveRecord(fields, this.now()) };
	}

	async take(namespace: string, queue: string, limit: number): Promise<QueuedEntry[]> {
		const members = await this.run(() =>
			this.redis.mbTake(
				this.key('inbox', namespace, queue),
				this.key('inbox-heads', namespace),
				queue,
				limit,
			),
		);
		return members.map(parseMember);
	}

	async dequeue(namespace: string, queue: string, seqs: readonly number[]): Promise<void> {
		if (seqs.length === 0) return;
		await this.run(() =>
			this.redis.mbDequeue(
				this.key('inbox', namespace, queue),
				this.key('inbox-heads', namespace),
				queue,
				...seqs,
			),
		);
	}

	async stalled(namespace: string, before: number, limit: number): Promise<string[]> {
		return await this.run(() =>
			this.redis.zrangebyscore(
				this.key('inbox-heads', namespace),
				'-inf',
				before,
				'LIMIT',
				0,
				limit,
			),
		);
	}

	async counters(namespace: string, prefix: string): Promise<CounterHash[]> {
		return await this.run(() =>
			readCounters(this.redis, this.key('counter-index', namespace), prefix, this.now(), (name) =>
				this.key('counters', namespace, name),
			),
		);
	}

	async noteActive(namespace: string, key: string, at: number, ttlMs: number): Promise<void> {
		const notes = this.key('active', namespace);
		const ttl = Math.max(1, Math.ceil(ttlMs));
		// GT: a later time replaces an earlier one only; notes past their time are trimmed as they go.
		await this.run(() =>
			this.redis
				.multi()
				.zadd(notes, 'GT', at, key)
				.zremrangebyscore(notes, '-inf', `(${at - ttl}`)
				.pexpire(notes, ttl)
				.exec(),
		);
	}

	async active(namespace: string, since: number, limit: number): Promise<string[]> {
		return await this.run(() =>
			this.redis.zrevrangebyscore(this.key('active', namespace), '+inf', since, 'LIMIT', 0, limit),
		);
	}

	async close(): Promise<void> {
		this.marker.stop();
		if (this.redis.status !== 'end') await this.redis.quit().catch(() => this.redis.disconnect());
	}
}

const open = new Map<string, RedisStore>();

/** One connection per Redis for the whole process: every execution shares it. */
export function sharedRedisStore(c: RedisCredential): RedisStore {
	const options = redisOptions(c);
	const id = JSON.stringify(options);
	return getOrCreate(open, id, () => new RedisStore(options));
}

export async function closeSharedRedisStores(): Promise<void> {
	for (const store of open.values()) await store.close();
	open.clear();
}

export { pingRedis } from './redis-options';
