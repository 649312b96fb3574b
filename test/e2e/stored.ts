/* eslint-disable @n8n/community-nodes/no-restricted-imports -- end-to-end tooling: reads a state store, never loaded by n8n */
import { DatabaseSync } from 'node:sqlite';

import { Redis } from 'ioredis';

import { BURST_SCOPE, storedFrom, type Stored } from './burst';

/** The burst's conversations in a SQLite state file. */
export function storedInSqlite(file: string): Stored {
	const db = new DatabaseSync(file, { readOnly: true });
	try {
		return storedFrom(
			db
				.prepare('SELECT key, value FROM records WHERE ns = ?')
				.all(`scenario:${BURST_SCOPE}`) as Array<{ key: string; value: string }>,
		);
	} finally {
		db.close();
	}
}

/** The burst's conversations in a Redis state store. */
export async function storedInRedis(port: number, db: number): Promise<Stored> {
	const redis = new Redis({ host: '127.0.0.1', port, db });
	try {
		const prefix = `messaging-bot:{scenario:${BURST_SCOPE}}:record:`;
		const records: Array<{ key: string; value: string }> = [];
		for (const key of await redis.keys(`${prefix}*`)) {
			const value = await redis.hget(key, 'value');
			if (value) records.push({ key: key.slice(prefix.length), value });
		}
		return storedFrom(records);
	} finally {
		await redis.quit();
	}
}
