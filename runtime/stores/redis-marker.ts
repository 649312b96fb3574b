/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the marker's touch is scheduled on the event loop's own timer, a few milliseconds after a write */
import { randomUUID } from 'node:crypto';

import type { Redis } from 'ioredis';

import type { LostWrites } from './loss';

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
 * The loss marker of a Redis store: a hash beside the data holding the store's id and, per
 * process, the time of its latest write the marker follows. The process keeps in memory the last
 * time Redis acknowledged. Each time the connection is (re)established, before any other command
 * of the store goes, the hash is read: no hash (Redis came back empty), another id (replaced), or
 * this process's time older than the one acknowledged (came back from an older snapshot) is a loss
 * of writes. A write acknowledged after the last touch and lost with it is not seen: at most
 * TOUCH_EVERY_MS and one round trip of writes.
 */
export class LossMarker {
	private readonly process = randomUUID();
	private id?: string;
	/** When this process first saw the marker: what an empty Redis lost is everything since. */
	private since = 0;
	private acknowledged = 0;
	private touching?: ReturnType<typeof setTimeout>;
	/** Set while the connection is down, until the marker has been checked on the next one. */
	gate?: Promise<void>;
	lost?: LostWrites;
	private readonly listeners: Array<(loss: LostWrites) => void> = [];

	constructor(
		private readonly redis: Redis,
		private readonly key: string,
		private readonly now: () => number,
	) {
		let open: () => void = () => undefined;
		// From the connection's start to the marker's check: no command of the store goes before it.
		redis.on('connect', () => {
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

	onLoss(listener: (loss: LostWrites) => void): void {
		this.listeners.push(listener);
		if (this.lost) listener(this.lost);
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
		if (!detail) return;
		const since = marker.id === this.id && mine > 0 ? mine : this.since;
		this.lost = { foundAt: now, since, detail };
		// Kept again: the next loss is told from this one.
		await this.redis.hset(this.key, 'id', this.id, `w:${this.process}`, now);
		this.acknowledged = now;
		for (const listener of this.listeners) listener(this.lost);
	}

	stop(): void {
		if (this.touching) clearTimeout(this.touching);
		this.touching = undefined;
	}
}
