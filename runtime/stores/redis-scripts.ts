import type { Redis } from 'ioredis';

import type { QueuedEntry, Versioned } from './types';

/**
 * Each operation is one Lua script, so a claim or a compare-and-set is atomic across every n8n
 * process sharing the Redis (main, webhook and worker processes of queue mode). Expiry compares
 * the caller's clock with a stored deadline (the contract's clock is injectable); Redis's own
 * expiry only collects what is long dead.
 */
/** After a dequeue (KEYS[3] the queue, KEYS[4] its heads index, ARGV[9] its name): the queue's
 * mark in the heads index follows its new first entry, or goes with the last. */
const HEAD = `
			local head = redis.call('ZRANGE', KEYS[3], 0, 0)
			if #head == 0 then redis.call('ZREM', KEYS[4], ARGV[9])
			else redis.call('ZADD', KEYS[4], string.match(head[1], '^%d+:(%d+):'), ARGV[9]) end`;

/**
 * The loss marker's guard (redis-marker.ts `guard`): `id|field|time` in ARGV[n], the marker the
 * last key. A Redis without the store's id, or with this process's time older than it saw
 * acknowledged, came back without writes: nothing is changed (-2).
 */
const guard = (n: number) => `
		if ARGV[${n}] ~= '' then
			local id, field, at = string.match(ARGV[${n}], '^(.-)|(.-)|(%d+)$')
			local marker = KEYS[#KEYS]
			if redis.call('HGET', marker, 'id') ~= id
				or tonumber(redis.call('HGET', marker, field) or '0') < tonumber(at) then return -2 end
		end`;

/**
 * Counter increments (KEYS[c] the namespace's index of counter hashes, then one key per hash;
 * ARGV[7] JSON [[expiresAt, {field: n}, name], ...]). A hash past its deadline starts again; the
 * index, scored by deadline, lets a reader find the hashes of a namespace without a scan.
 */
const COUNT = `
		if ARGV[7] ~= '' then
			local now = tonumber(ARGV[3])
			for i, h in ipairs(cjson.decode(ARGV[7])) do
				local k = KEYS[c + i]
				local deadline = tonumber(redis.call('ZSCORE', KEYS[c], h[3]) or '0')
				if deadline <= now then redis.call('DEL', k) end
				for field, n in pairs(h[2]) do redis.call('HINCRBY', k, field, n) end
				-- A day's writes share one deadline: set with the first of them.
				if deadline ~= h[1] then
					redis.call('PEXPIRE', k, math.max(1, h[1] - now) + 86400000)
					redis.call('ZADD', KEYS[c], h[1], h[3])
				end
			end
		end`;

const SCRIPTS = {
	// KEYS: claim. ARGV: now, deadline, ttl.
	claim: `
		local expires = tonumber(redis.call('GET', KEYS[1]) or '0')
		if expires > tonumber(ARGV[1]) then return 0 end
		redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
		return 1`,
	// KEYS: record, due index, and with entries to dequeue their queue and its heads index.
	// ARGV: value, expected version, now, expiresAt ('' for never), key, due ('keep', 'clear' or a
	// time), counters ('' for none, see COUNT), the marker's guard ('' for none), the queue's name
	// ('' for none) and the seqs to dequeue. KEYS after the record and the due index: the queue and
	// its heads index when dequeuing, then the counter index and hashes when counting, then the
	// marker when guarded. A record is a hash {value, version,
	// expires}; an expired one reads as absent, but its version still grows so a stale writer
	// cannot win.
	write: `${guard(8)}
		local current = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
		local expires = tonumber(redis.call('HGET', KEYS[1], 'expires') or '0')
		local live = current
		if expires > 0 and expires <= tonumber(ARGV[3]) then live = 0 end
		if live ~= tonumber(ARGV[2]) then return -1 end
		redis.call('HSET', KEYS[1], 'value', ARGV[1], 'version', current + 1)
		if ARGV[4] == '' then
			redis.call('HDEL', KEYS[1], 'expires')
			redis.call('PERSIST', KEYS[1])
		else
			redis.call('HSET', KEYS[1], 'expires', ARGV[4])
			-- Redis's own expiry only collects what is long dead; the deadline above decides.
			redis.call('PEXPIRE', KEYS[1], math.max(1, tonumber(ARGV[4]) - tonumber(ARGV[3])) + 86400000)
		end
		if ARGV[6] == 'clear' then redis.call('ZREM', KEYS[2], ARGV[5])
		elseif ARGV[6] ~= 'keep' then redis.call('ZADD', KEYS[2], ARGV[6], ARGV[5]) end
		local c = 3
		if ARGV[9] ~= '' then
			for i = 10, #ARGV do redis.call('ZREMRANGEBYSCORE', KEYS[3], ARGV[i], ARGV[i]) end
			${HEAD}
			c = 5
		end
		${COUNT}
		return current + 1`,
	// KEYS: record, due index, the marker when guarded. ARGV: expected version, key, guard.
	remove: `${guard(3)}
		local current = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
		if current ~= tonumber(ARGV[1]) then return 0 end
		redis.call('DEL', KEYS[1])
		redis.call('ZREM', KEYS[2], ARGV[2])
		return 1`,
	// KEYS: record, due index. ARGV: key, now. The mark goes only when due and the record is
	// absent or past its deadline (as a read finds it).
	dropDue: `
		local at = redis.call('ZSCORE', KEYS[2], ARGV[1])
		if not at or tonumber(at) > tonumber(ARGV[2]) then return 0 end
		local f = redis.call('HMGET', KEYS[1], 'value', 'expires')
		if f[1] and (not f[2] or tonumber(f[2]) > tonumber(ARGV[2])) then return 0 end
		redis.call('ZREM', KEYS[2], ARGV[1])
		return 1`,
	// KEYS: queue, heads index, seq counter, then one claim key per id.
	// ARGV: now, ttl, value, queue name. Every claim free, or nothing is written.
	enqueue: `
		local now = tonumber(ARGV[1])
		for i = 4, #KEYS do
			if tonumber(redis.call('GET', KEYS[i]) or '0') > now then return -1 end
		end
		for i = 4, #KEYS do redis.call('SET', KEYS[i], now + tonumber(ARGV[2]), 'PX', ARGV[2]) end
		local seq = redis.call('INCR', KEYS[3])
		redis.call('ZADD', KEYS[1], seq, seq .. ':' .. ARGV[1] .. ':' .. ARGV[3])
		redis.call('ZADD', KEYS[2], 'NX', now, ARGV[4])
		return seq`,
	// KEYS: queue, heads index. ARGV: queue name, seqs...
	dequeue: `
		for i = 2, #ARGV do redis.call('ZREMRANGEBYSCORE', KEYS[1], ARGV[i], ARGV[i]) end
		local head = redis.call('ZRANGE', KEYS[1], 0, 0)
		if #head == 0 then redis.call('ZREM', KEYS[2], ARGV[1]) return 0 end
		local at = string.match(head[1], '^%d+:(%d+):')
		redis.call('ZADD', KEYS[2], at, ARGV[1])
		return 1`,
	// KEYS: queue, heads index. ARGV: queue name, limit. Returns the members taken.
	take: `
		local taken = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[2]) - 1)
		if #taken > 0 then redis.call('ZREMRANGEBYRANK', KEYS[1], 0, #taken - 1) end
		local head = redis.call('ZRANGE', KEYS[1], 0, 0)
		if #head == 0 then redis.call('ZREM', KEYS[2], ARGV[1])
		else redis.call('ZADD', KEYS[2], string.match(head[1], '^%d+:(%d+):'), ARGV[1]) end
		return taken`,
} as const;

export type Scripted = Redis & {
	mbClaim(key: string, now: number, deadline: number, ttl: number): Promise<number>;
	mbWrite(numberOfKeys: number, ...args: Array<string | number>): Promise<number>;
	mbRemove(numberOfKeys: number, ...args: Array<string | number>): Promise<number>;
	mbDropDue(record: string, due: string, key: string, now: number): Promise<number>;
	mbEnqueue(numberOfKeys: number, ...args: Array<string | number>): Promise<number>;
	mbDequeue(queue: string, heads: string, name: string, ...seqs: number[]): Promise<number>;
	mbTake(queue: string, heads: string, name: string, limit: number): Promise<string[]>;
};

/** The connection with the store's scripts defined on it (sent by hash, loaded once). */
export function scripted(redis: Redis): Scripted {
	const defined = redis as Scripted;
	defined.defineCommand('mbClaim', { numberOfKeys: 1, lua: SCRIPTS.claim });
	defined.defineCommand('mbWrite', { lua: SCRIPTS.write });
	defined.defineCommand('mbRemove', { lua: SCRIPTS.remove });
	defined.defineCommand('mbDropDue', { numberOfKeys: 2, lua: SCRIPTS.dropDue });
	defined.defineCommand('mbEnqueue', { lua: SCRIPTS.enqueue });
	defined.defineCommand('mbDequeue', { numberOfKeys: 2, lua: SCRIPTS.dequeue });
	defined.defineCommand('mbTake', { numberOfKeys: 2, lua: SCRIPTS.take });
	return defined;
}

/** A queue member is `seq:at:value`. */
export function parseMember(member: string): QueuedEntry {
	const first = member.indexOf(':');
	const second = member.indexOf(':', first + 1);
	return {
		seq: Number(member.slice(0, first)),
		at: Number(member.slice(first + 1, second)),
		value: member.slice(second + 1),
	};
}

/** The fields of a record's hash, as HMGET asks for them. */
export const RECORD_FIELDS = ['value', 'version', 'expires'] as const;

/** A record's hash as HMGET answers RECORD_FIELDS: undefined when absent or expired at `now`. */
export function liveRecord(
	[value, version, expires]: ReadonlyArray<string | null>,
	now: number,
): Versioned | undefined {
	if (value === null || version === null) return undefined;
	if (expires !== null && Number(expires) <= now) return undefined;
	return { value, version: Number(version) };
}

/** A pipeline's replies, in order; its first failed command's error is thrown. */
export function pipelined<T extends unknown[]>(replies: Array<[Error | null, unknown]> | null): T {
	return (replies ?? []).map(([error, reply]) => {
		if (error) throw error;
		return reply;
	}) as T;
}
