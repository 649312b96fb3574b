/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/require-node-api-error -- dev tooling: prepares n8n's own database, never loaded by n8n */
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	renameSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import path from 'node:path';

import { n8nCacheDir, N8N_VERSION } from './n8n-install';
import { n8nCli, type N8nOptions } from './n8n-process';

/*
 * n8n creates its tables at its first command in a new database: 3 s of migrations on SQLite, 5 s
 * on PostgreSQL, at every n8n the tests start. They are run once per n8n version instead, and a
 * new database starts as a copy of the result (a file copy; PostgreSQL's CREATE DATABASE … TEMPLATE).
 */

/** Runs an n8n command that migrates an empty database and does nothing else. */
function migrate(o: N8nOptions): void {
	const empty = path.join(o.userFolder, 'nothing.json');
	writeFileSync(empty, '[]');
	n8nCli(o, ['import:credentials', `--input=${empty}`]);
}

/** Ports are never opened by a CLI command; these only fill the options. */
const CLI_ONLY = { port: 0, brokerPort: 0 };

/** The path of an SQLite database migrated by `version`, made on first use. */
function migratedSqlite(version: string): string {
	const file = path.join(n8nCacheDir(version), 'migrated-database.sqlite');
	if (existsSync(file)) return file;
	mkdirSync(path.dirname(file), { recursive: true });
	const scratch = mkdtempSync(`${file}.partial-`);
	try {
		migrate({ ...CLI_ONLY, userFolder: scratch, n8nVersion: version });
		// Parallel test workers may make it at once: each renames a whole copy into place.
		renameSync(path.join(scratch, '.n8n', 'database.sqlite'), file);
	} finally {
		rmSync(scratch, { recursive: true, force: true });
	}
	return file;
}

/**
 * For an n8n on SQLite (n8n's default): its user folder's database, unless it has one, as a copy
 * of a migrated one.
 */
export function seedSqliteDatabase(o: N8nOptions): void {
	if (o.env?.DB_TYPE && o.env.DB_TYPE !== 'sqlite') return;
	const target = path.join(o.userFolder, '.n8n', 'database.sqlite');
	if (existsSync(target)) return;
	mkdirSync(path.dirname(target), { recursive: true });
	copyFileSync(migratedSqlite(o.n8nVersion ?? N8N_VERSION), target);
}

type Psql = (sql: string, database?: string) => string;

/**
 * The name of a PostgreSQL database migrated by `version`, made on first use on this server; a
 * template for CREATE DATABASE (nothing connects to it after it is made).
 */
export function migratedPostgresTemplate(
	psql: Psql,
	env: Record<string, string>,
	version: string = N8N_VERSION,
): string {
	const name = `mb_n8n_migrated_${version.replace(/\W/g, '_')}`;
	const exists = (db: string) =>
		psql(`SELECT count(*) FROM pg_database WHERE datname = '${db}'`).trim() === '1';
	if (exists(name)) return name;
	const partial = `${name}_partial_${process.pid}`;
	psql(`CREATE DATABASE ${partial}`);
	mkdirSync(n8nCacheDir(version), { recursive: true });
	const userFolder = mkdtempSync(path.join(n8nCacheDir(version), 'migrating-'));
	try {
		const o = { ...CLI_ONLY, userFolder, n8nVersion: version };
		migrate({ ...o, env: { ...env, DB_TYPE: 'postgresdb', DB_POSTGRESDB_DATABASE: partial } });
		psql(`ALTER DATABASE ${partial} RENAME TO ${name}`);
	} catch (error) {
		psql(`DROP DATABASE IF EXISTS ${partial}`);
		// Another worker's copy may be there first: then this one is not needed.
		if (!exists(name)) throw error;
	} finally {
		rmSync(userFolder, { recursive: true, force: true });
	}
	return name;
}
