/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- end-to-end tooling: a PostgreSQL server of the test's own, never loaded by n8n */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { onFreePort } from '../helpers/on-free-port';
import { psqlAt } from './psql';

/**
 * A PostgreSQL server of a test's own (its data folder and port), to stop and start at will: the
 * machine's server is shared by n8n and other tests and is never restarted. initdb refuses to run
 * as root, so as root the server runs as the `postgres` OS user, in a folder that user owns.
 */
export type OwnPostgres = {
	host: string;
	port: number;
	/** `fast` (clients disconnected, a checkpoint) or `immediate` (no checkpoint: a crash's recovery). */
	stop(mode: 'fast' | 'immediate'): void;
	start(): void;
	/** Stops it for good and removes its folder. */
	remove(): void;
	psql(sql: string, database?: string): string;
};

function binDir(): string {
	const root = '/usr/lib/postgresql';
	const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
	const found = versions.map((v) => path.join(root, v, 'bin')).find((d) => existsSync(d));
	if (!found) throw new Error(`No PostgreSQL server binaries under ${root}`);
	return found;
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
	const bin = binDir();
	const dir = mkdtempSync(path.join(tmpdir(), 'mb-own-pg-'));
	const data = path.join(dir, 'data');
	const asRoot = process.getuid?.() === 0;
	if (asRoot) {
		const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
		const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
		chownSync(dir, uid, gid);
	}
	const run = (tool: string, args: string[]) =>
		asRoot
			? execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args], {
					encoding: 'utf8',
					stdio: ['ignore', 'pipe', 'pipe'],
					// In its own folder: from one the postgres user cannot enter, pg_ctl's message is a
					// warning about that, not why the server failed.
					cwd: dir,
				})
			: execFileSync(path.join(bin, tool), args, {
					encoding: 'utf8',
					stdio: ['ignore', 'pipe', 'pipe'],
				});
	run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
	const log = path.join(dir, 'server.log');
	let port = 0;
	const server: OwnPostgres = {
		host: '127.0.0.1',
		port,
		start: () =>
			void run('pg_ctl', [
				'-D',
				data,
				'-l',
				log,
				'-o',
				`-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
				'-w',
				'start',
			]),
		stop: (mode) => void run('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']),
		remove() {
			try {
				server.stop('immediate');
			} catch {
				// Not running.
			}
			rmSync(dir, { recursive: true, force: true });
		},
		psql: (sql, database = 'postgres') => psqlAt({ host: '127.0.0.1', port }, database, sql),
	};
	await onFreePort(
		(free) => {
			server.port = port = free;
			server.start();
		},
		() => existsSync(log) && readFileSync(log, 'utf8').includes('Address already in use'),
	);
	return server;
}
