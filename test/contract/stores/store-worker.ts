/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling: a second OS process on one store, never loaded by n8n */
import { PostgresStore } from '../../../runtime/stores/postgres';
import { RedisStore } from '../../../runtime/stores/redis';
import { SqliteStore } from '../../../runtime/stores/sqlite';
import type { StateStore } from '../../../runtime/stores/types';

/**
 * One of several processes hammering one store at once: compare-and-set increments of a shared
 * counter (each counting itself in the store's counters), and appends of ids that every process
 * also appends. Prints what it won as JSON.
 */
const DAY = 86_400_000;

async function main(): Promise<void> {
	const [kind, where, name, rounds] = process.argv.slice(2);
	const open = (): StateStore =>
		kind === 'sqlite'
			? new SqliteStore(where)
			: kind === 'postgres'
				? new PostgresStore(JSON.parse(where) as object)
				: new RedisStore(where, name.split('#')[0]);
	// Opened on the go signal too when asked: the processes then open (and migrate) it at once.
	const openOnGo = process.env.MB_OPEN_ON_GO === '1';
	let store = openOnGo ? undefined : open();
	const me = name.split('#')[1];
	// Ready, then wait for the go signal: the processes overlap instead of running one after another.
	process.stdout.write('ready\n');
	await new Promise<void>((resolve) =>
		process.stdin.once('data', () => {
			process.stdin.pause();
			resolve();
		}),
	);
	store ??= open();
	let conflicts = 0;
	const appended: string[] = [];
	for (let i = 0; i < Number(rounds); i++) {
		for (;;) {
			const current = await store.read('counter', 'n');
			const value = String(Number(current?.value ?? 0) + 1);
			// Each applied step counts itself in the same write: a lost compare-and-set counts nothing.
			const counters = {
				namespace: 'counted',
				hashes: [
					{
						key: 'day',
						incr: new Map([
							['steps', 1],
							[`by:${me}`, 1],
						]),
						expiresAt: Date.now() + DAY,
					},
				],
			};
			const written = await store.write('counter', 'n', value, current?.version ?? 0, { counters });
			if (written !== null) break;
			conflicts++;
		}
		if ((await store.enqueue('inbox', 'q', [`m:${i}`], `${me}:${i}`, 60_000)) !== null)
			appended.push(`m:${i}`);
	}
	process.stdout.write(JSON.stringify({ conflicts, appended }));
	await store.close();
}

void main();
