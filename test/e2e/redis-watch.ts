/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- end-to-end tooling: watches a Redis of the test's own, never loaded by n8n */
import { execFileSync } from 'node:child_process';

import { Redis } from 'ioredis';

import { sleep } from './burst';

const MARKER = 'messaging-bot:{~marker}:store';

/**
 * The state Redis watched through a run, for a failing run to show which process did what: the
 * marker's hash read every 100 ms (each change kept with its time), and every 500 ms each client
 * connection (CLIENT LIST: its last command and idle seconds) with the process that holds it
 * (`ss`). Only reads: a MONITOR would take the feed a reconnecting client expects replies on.
 */
export function watchStateRedis(port: () => number): { stop: () => string[] } {
	const seen: string[] = [];
	const clients = new Map<string, string>();
	const owners = new Map<string, string>();
	let running = true;
	let last = '';
	const redis = new Redis({ port: port(), lazyConnect: true, maxRetriesPerRequest: 0 });
	redis.on('error', () => undefined);
	const stamp = () => new Date().toISOString();
	const markerLoop = (async () => {
		while (running) {
			const marker = await redis.hgetall(MARKER).catch(() => undefined);
			const text = marker === undefined ? '(unreachable)' : JSON.stringify(marker);
			if (text !== last) seen.push(`${stamp()} ${text}`);
			last = text;
			await sleep(100);
		}
	})();
	const clientLoop = (async () => {
		while (running) {
			const list = (await redis.client('LIST').catch(() => '')) as string;
			for (const line of list.split('\n')) {
				const addr = /addr=(\S+)/.exec(line)?.[1];
				if (addr)
					clients.set(
						addr,
						`${stamp()} ${/idle=\d+/.exec(line)?.[0]} ${/cmd=\S+/.exec(line)?.[0]}`,
					);
			}
			owned(port(), owners);
			await sleep(500);
		}
	})();
	return {
		stop: () => {
			running = false;
			void Promise.allSettled([markerLoop, clientLoop]).finally(() => redis.disconnect());
			for (const [addr, at] of clients)
				seen.push(`client ${addr} pid ${owners.get(addr) ?? '?'} last seen ${at}`);
			return seen;
		},
	};
}

/** Each connection to the port, by its client address, with the pid that holds it. */
function owned(port: number, owners: Map<string, string>): void {
	try {
		const out = execFileSync('ss', ['-tnpH', 'state', 'established', `( dport = :${port} )`], {
			encoding: 'utf8',
		});
		for (const line of out.split('\n')) {
			const cols = line.trim().split(/\s+/);
			const pid = /pid=(\d+)/.exec(line)?.[1];
			if (cols.length > 3 && pid) owners.set(cols[2], pid);
		}
	} catch {
		// ss missing or failed: the connections are listed by address only.
	}
}
