import { PostgresStore } from './postgres';
import { isPostgresUrl, postgresFromUrl } from './postgres-options';
import { RedisStore } from './redis';
import { SqliteStore } from './sqlite';
import type { StateStore } from './types';

/**
 * A state store opened to read and write, from what the CLI and the studio are given: a Redis
 * URL, a PostgreSQL URL (its tables not made when missing) or a SQLite file.
 */
export function openStateStore(where: string): StateStore {
	if (/^rediss?:\/\//.test(where)) return new RedisStore(where);
	if (isPostgresUrl(where))
		return new PostgresStore(postgresFromUrl(where), undefined, { migrate: false });
	return new SqliteStore(where);
}
