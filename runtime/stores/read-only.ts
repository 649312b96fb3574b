/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the CLI and the studio read a store in a terminal, never loaded by n8n */
import { existsSync } from 'node:fs';

import { PostgresStore } from './postgres';
import { isPostgresUrl, postgresFromUrl } from './postgres-options';
import { RedisStore } from './redis';
import { nodeSqlite } from './sqlite';
import { STATEMENTS } from './sqlite-schema';
import type { CounterHash, StateStore } from './types';

/**
 * A state store opened only to read its analytics counters, for the CLI's diagram and the
 * studio: a SQLite file opened read-only (no table created, nothing migrated, no sweep), a
 * Redis whose counters are read with reads only, or a PostgreSQL store read with SELECTs only (its
 * tables are not made when missing). The n8n that writes it may be running.
 */
export interface CounterReader extends Pick<StateStore, 'counters'> {
	/** What was opened, for messages (never a password). */
	readonly where: string;
	close(): Promise<void>;
}

const isRedisUrl = (where: string) => /^rediss?:\/\//.test(where);

export function openCountersReadOnly(where: string, now = () => Date.now()): CounterReader {
	if (isRedisUrl(where)) {
		const store = new RedisStore(where, undefined, now);
		return {
			where: store.where,
			counters: (ns, p) => store.counters(ns, p),
			close: () => store.close(),
		};
	}
	if (isPostgresUrl(where)) {
		const store = new PostgresStore(postgresFromUrl(where), now, { migrate: false });
		return {
			where: store.where,
			counters: (ns, p) => store.counters(ns, p),
			close: () => store.close(),
		};
	}
	if (!existsSync(where)) throw new Error(`No state store file at ${where}`);
	const db = new (nodeSqlite().DatabaseSync)(where, { readOnly: true });
	// The writer holds the lock for a commit now and then: wait for it rather than fail.
	db.exec('PRAGMA busy_timeout = 5000');
	const statement = db.prepare(STATEMENTS.counters);
	return {
		where,
		async counters(namespace: string, prefix: string): Promise<CounterHash[]> {
			const rows = statement.all(namespace, prefix, `${prefix}\uffff`, now()) as Array<{
				key: string;
				field: string;
				value: number;
			}>;
			const byKey = new Map<string, Record<string, number>>();
			for (const { key, field, value } of rows)
				(byKey.get(key) ?? byKey.set(key, {}).get(key)!)[field] = Number(value);
			return [...byKey].map(([key, fields]) => ({ key, fields }));
		},
		async close() {
			if (db.isOpen) db.close();
		},
	};
}
