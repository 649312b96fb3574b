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

/** What a Redis state store holds of the given messages' conversations: for a failing run. */
export async function explainInRedis(port: number, db: number, messageIds: string[]) {
	const redis = new Redis({ host: '127.0.0.1', port, db });
	try {
		const lines: string[] = [];
		for (const client of new Set(messageIds.map((id) => id.replace(/-m\d+$/, '')))) {
			const key = `bot_shop:${client}`;
			const record = await redis.hgetall(`messaging-bot:{scenario:${BURST_SCOPE}}:record:${key}`);
			const inbox = await redis.zrange(`messaging-bot:{inbox:${BURST_SCOPE}}:inbox:${key}`, '0', '-1');
			const value = record.value ? (JSON.parse(record.value) as Record<string, unknown>) : {};
			const { snapshot, ...rest } = value;
			// Every key naming the client: a record kept under another namespace shows here.
			const keys = await redis.keys(`*${client}*`);
			lines.push(
				`${client}: version ${record.version} state ${JSON.stringify((snapshot as { value?: unknown })?.value)} ${JSON.stringify(rest)} inbox ${JSON.stringify(inbox)} keys ${JSON.stringify(keys)}`,
			);
		}
		lines.push(`marker ${JSON.stringify(await redis.hgetall('messaging-bot:{~marker}:store'))}`);
		return `\n${lines.join('\n')}`;
	} finally {
		await redis.quit();
	}
}
