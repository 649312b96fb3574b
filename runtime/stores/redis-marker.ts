/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the marker's touch is scheduled on the event loop's own timer, a few milliseconds after a write */
import { randomUUID } from 'node:crypto';

import type { Redis } from 'ioredis';

import { SHARED_LOSS_EVERY_MS, sharedLoss, type LostWrites } from './loss';

// Taken at load: a test's fake timers must not stop the marker.
const later = setTimeout;

/** A write is followed by its marker's touch within this long (one HSET per process at most). */
const TOUCH_EVERY_MS = 20;
/** The marker moves on, never back, and only from what this process last saw acknowledged, in the same store. */
const TOUCH = `
if redis.call('HGET', KEYS[1], 'id') ~= ARGV[4] then return 0 end
local mine = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
if mine < tonumber(ARGV[2]) then return 0 end
if tonumber(ARGV[3]) > mine then redis.call('HSET', KEYS[1], ARGV[1], ARGV[3]) end
return 1`;
/**
 * The loss found, kept in the marker for every process; unless another process found it first
 * (after this one's latest acknowledged write): then that one, the same loss, is taken.
 */
const SHARE_LOSS = `
local kept = tonumber(redis.call('HGET', KEYS[1], 'lossAt') or '0')
if kept > tonumber(ARGV[3]) then return redis.call('HGET', KEYS[1], 'loss') end
redis.call('HSET', KEYS[1], 'loss', ARGV[1], 'lossAt', ARGV[2])
return ARGV[1]`;

/**
 * The loss marker of a Redis store: a hash beside the data holding the store's id and, per
 * process, the time of its latest write the marker follows. The process keeps in memory the last
 * time Redis acknowledged. Each time the connection is (re)established, before any new command
 * of the store goes, the hash is read (a command the client queued or sends again may reach Redis
 * first: its answer waits for this check, redis.ts `run`): no hash (Redis came back empty),
 * another id (replaced), or this process's time older than the one acknowledged (came back from
 * an older snapshot) is a loss of writes. A write acknowledged after the last touch and lost with
 * it is not seen: at most TOUCH_EVERY_MS and one round trip of writes.
 *
 * A loss is the whole store's, not only its finder's: a process that wrote nothing in the lost
 * stretch finds nothing of its own missing, yet its next message may meet a record another
 * process's lost write had moved on. So the finder writes the loss into the hash (`loss`), and
 * every process takes in a loss found after it began, at its own reconnect and when asked
 * (`lostWrites`, before each execution, at most every SHARED_LOSS_EVERY_MS).
 */
export class LossMarker {
	private readonly process = randomUUID();
	private id?: string;
	/** When this process first saw the marker: what an empty Redis lost is everything since. */
	private since = 0;
	private acknowledged = 0;
	private touching?: ReturnType<typeof setTimeout>;
	private sharedReadAt = 0;
	private sharedRead?: Promise<void>;
	/** Set while the connection is down, until the marker has been checked on the next one. */
	gate?: Promise<void>;
	/** Connections made so far: a command answered on a later one than it was sent on is checked. */
	connection = 0;
	lost?: LostWrites;
	private readonly listeners: Array<(loss: LostWrites) => void> = [];
	/** A check made outside a connect (`checkNow`), shared by those that wait for it. */
	private checking?: Promise<void>;

	constructor(
		private readonly redis: Redis,
		private readonly key: string,
		private readonly now: () => number,
	) {
		let open: () => void = () => undefined;
		// From the connection's start to the marker's check: no command of the store goes before it.
		redis.on('connect', () => {
			this.connection++;
			this.gate ??= new Promise<void>((resolve) => (open = resolve));
		});
		redis.on('ready', () => {
			void this.check()
				.catch(() => undefined)
				.finally(() => {
					this.gate = undefined;
					open();
				});
		});
	}

	/**
	 * Before a command of the store: the connection's check done, and the marker's id known. The
	 * check at connect runs in an event listener, whose failure nobody awaits: a store whose first
	 * check failed (a command of it refused or cut off) would otherwise write unguarded, touch
	 * nothing, never take in a loss another process found, and start its `since` only at the next
	 * reconnect. So a command waits for a check that succeeded, made here if none has.
	 */
	async ready(): Promise<void> {
		if (this.gate) await this.gate;
		if (this.id) return;
		await this.checkNow();
		if (!this.id) throw new Error('its loss marker could not be read');
	}

	/**
	 * The marker refused this process (a touch or a write's guard) on a connection already checked:
	 * it lost this process's time without a reconnect (emptied, or a failover behind a proxy).
	 * Checked now, so the loss is found and taken in; a failed check is retried by the next.
	 */
	async recheck(): Promise<void> {
		if (this.gate) return;
		await this.checkNow().catch(() => undefined);
	}

	/** A check made outside a connect (one at a time, shared by whoever asks meanwhile). */
	private checkNow(): Promise<void> {
		this.checking ??= this.check().finally(() => (this.checking = undefined));
		return this.checking;
	}

	onLoss(listener: (loss: LostWrites) => void): void {
		this.listeners.push(listener);
		if (this.lost) listener(this.lost);
	}

	/**
	 * What a write checks in its own script before it changes anything (the marker's key, then
	 * `id|field|time`): the store's id, and this process's time in the marker no older than the last
	 * it saw acknowledged. A write that reaches a Redis which came back without them (sent from the
	 * client's queue, or again after a reconnect, before the check) is refused. Empty before the
	 * first check.
	 */
	guard(): [string, string] | undefined {
		if (!this.id) return undefined;
		return [this.key, `${this.id}|w:${this.process}|${this.acknowledged}`];
	}

	/** A write was acknowledged: the marker follows it shortly. */
	touch(): void {
		this.touching ??= later(() => {
			this.touching = undefined;
			const id = this.id;
			if (!id) return;
			const at = this.now();
			// Compare-and-set: a touch that reaches a Redis which came back without this process's
			// latest time (sent from ioredis's offline queue, or resent after a reconnect, before the
			// check) writes nothing, so it cannot hide the loss from the check.
			this.redis.eval(TOUCH, 1, this.key, `w:${this.process}`, this.acknowledged, at, id).then(
				(done) => {
					if (done === 1) this.acknowledged = Math.max(this.acknowledged, at);
					else void this.recheck();
				},
				() => undefined,
			);
		}, TOUCH_EVERY_MS).unref();
	}

	private async check(): Promise<void> {
		const marker = await this.redis.hgetall(this.key);
		const now = this.now();
		if (!this.id) {
			// First connect: the store's id, kept from then on (created once, by whoever is first).
			await this.redis.hsetnx(this.key, 'id', randomUUID());
			this.id = (await this.redis.hget(this.key, 'id')) ?? undefined;
			this.since = now;
			return;
		}
		const mine = Number(marker[`w:${this.process}`] ?? 0);
		let detail: string | undefined;
		if (!marker.id) detail = 'it came back empty';
		else if (marker.id !== this.id) detail = 'it came back as another store';
		else if (mine < this.acknowledged)
			detail = `it came back as it was at ${new Date(mine).toISOString()}`;
		if (!detail) {
			if (marker.id === this.id) this.takeShared(marker.loss);
			return;
		}
		const since = marker.id === this.id && mine > 0 ? mine : this.since;
		// Kept again: the next loss is told from this one.
		await this.redis.hset(this.key, 'id', this.id, `w:${this.process}`, now);
		const acknowledged = this.acknowledged;
		this.acknowledged = now;
		const found = JSON.stringify({ foundAt: now, since, detail } satisfies LostWrites);
		// Told to every other process; or the same loss another process told first.
		const loss = (await this.redis.eval(
			SHARE_LOSS,
			1,
			this.key,
			found,
			now,
			acknowledged,
		)) as string;
		this.take(JSON.parse(loss) as LostWrites);
	}

	/** A loss another process found and wrote into the marker: taken in, at most this often. */
	async shared(): Promise<void> {
		if (this.now() - this.sharedReadAt < SHARED_LOSS_EVERY_MS || !this.id) return;
		this.sharedRead ??= this.redis
			.hget(this.key, 'loss')
			.then((value) => {
				this.sharedReadAt = this.now();
				this.takeShared(value ?? undefined);
			})
			.finally(() => (this.sharedRead = undefined));
		await this.sharedRead;
	}

	private takeShared(value: string | undefined): void {
		const loss = sharedLoss(value, this.since, this.lost);
		if (loss) this.take(loss);
	}

	private take(loss: LostWrites): void {
		this.lost = loss;
		for (const listener of this.listeners) listener(loss);
	}

	stop(): void {
		if (this.touching) clearTimeout(this.touching);
		this.touching = undefined;
	}
}

/** A command's answer came from a Redis that had lost writes, or its write was refused for it. */
export class LostAnswer extends Error {
	constructor() {
		super(
			'answered by the Redis as it came back without writes, before the loss was found: make it again',
		);
	}
}

/** A script's -2: the marker's guard refused the write (the Redis came back without writes). */
export function unlessLost(result: number): number {
	if (result === -2) throw new LostAnswer();
	return result;
}
