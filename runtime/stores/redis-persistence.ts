import type { Redis } from 'ioredis';

/** How a Redis keeps its data on disk, as its configuration says (read once per process). */
export interface Persistence {
	/** `appendonly`: every write goes to the append-only file. */
	aof?: boolean;
	/** `appendfsync`: always, everysec or no. */
	fsync?: string;
	/** `save`: the snapshot schedule ("" for none). */
	save?: string;
	/** Why the configuration could not be read (CONFIG disabled or renamed, an ACL). */
	unknown?: string;
}

/** Reads the configuration; falls back on INFO persistence when CONFIG is not allowed. */
export async function readPersistence(redis: Redis): Promise<Persistence> {
	try {
		const reply = (await redis.call('CONFIG', 'GET', 'appendonly', 'appendfsync', 'save')) as
			| string[]
			| Record<string, string>;
		const config = Array.isArray(reply) ? pairs(reply) : reply;
		return { aof: config.appendonly === 'yes', fsync: config.appendfsync, save: config.save };
	} catch (error) {
		const why = `CONFIG GET was refused (${(error as Error).message})`;
		try {
			const info = await redis.info('persistence');
			const aof = /aof_enabled:1/.test(info);
			return { aof, unknown: why };
		} catch {
			return { unknown: why };
		}
	}
}

function pairs(list: string[]): Record<string, string> {
	const config: Record<string, string> = {};
	for (let i = 0; i + 1 < list.length; i += 2) config[list[i]] = list[i + 1];
	return config;
}

/**
 * What a crash of this Redis (a kill, a power cut, an out-of-memory kill) loses of what it
 * acknowledged, in words; undefined when nothing (the append-only file, fsync on every write).
 */
export function crashLoss(p: Persistence): string | undefined {
	if (p.aof && p.fsync === 'always') return undefined;
	if (p.aof && p.fsync === 'everysec') return 'up to the last second of writes';
	if (p.aof && p.fsync === 'no')
		return 'up to about 30 seconds of writes (appendfsync no: the system flushes when it likes)';
	if (p.aof)
		return `some of the latest writes (appendonly yes; ${p.unknown ?? 'fsync policy unknown'})`;
	if (p.save === undefined)
		return `possibly everything since its last snapshot: ${p.unknown ?? 'its persistence could not be read'}`;
	if (p.save.trim() === '')
		return 'everything: it keeps nothing on disk (no append-only file, no snapshots)';
	return `every write since its last snapshot (no append-only file; snapshots on save "${p.save}", so up to the longest interval of that schedule)`;
}

/** The sentence said at connect: which Redis, what a crash loses, what the store does, what to do. */
export function persistenceWarning(where: string, loss: string): string {
	return (
		`The Redis state store at ${where} can lose writes it has acknowledged: a crash of that Redis loses ${loss}. ` +
		"Conversations it loses are rebuilt from the service's message history, and what cannot be rebuilt is reported per conversation. " +
		'To lose nothing, run Redis with appendonly yes and appendfsync always (everysec loses at most a second); ' +
		'the option Refuse a Redis That Can Lose Writes stops the node from using such a Redis.'
	);
}
