/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test tooling: a Redis server of the test's own, killed and started again, never loaded by n8n */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Redis } from 'ioredis';

import { freePort } from '../../scripts/lib/n8n-process';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A redis-server of the test's own on a free port, with no persistence unless `args` say how
 * (then it comes back from its own folder's snapshot): for tests that kill it, restart it, or
 * change its users or its configuration, which the machine's shared Redis must never see.
 */
export class OwnRedis {
	private readonly dir = mkdtempSync(path.join(tmpdir(), 'mb-own-redis-'));
	private server?: ChildProcess;

	private constructor(
		readonly port: number,
		private readonly args: readonly string[],
	) {}

	/** `args`: redis-server's own (persistence, renamed commands); none: it keeps nothing. */
	static async start(...args: string[]): Promise<OwnRedis> {
		const redis = new OwnRedis(
			await freePort(),
			args.length > 0 ? args : ['--save', '', '--appendonly', 'no'],
		);
		await redis.restart();
		return redis;
	}

	/** Starts it (again), listening when resolved. */
	async restart(): Promise<void> {
		const args = ['--port', String(this.port), '--dir', this.dir, ...this.args];
		this.server = spawn('redis-server', args);
		for (let waited = 0; waited < 3000; waited += 10) {
			// A bare PING: a store's probe would write its own marker into the new Redis.
			const probe = new Redis({ port: this.port, lazyConnect: true, retryStrategy: () => null });
			const up = await probe.ping().then(
				() => true,
				() => false,
			);
			probe.disconnect();
			if (up) return;
			await sleep(10);
		}
		throw new Error(`redis-server did not start on ${this.port}`);
	}

	/** SIGKILL, resolved once it is gone. */
	async kill(): Promise<void> {
		const server = this.server;
		if (!server || server.exitCode !== null) return;
		const gone = new Promise((resolve) => server.once('exit', resolve));
		server.kill('SIGKILL');
		await gone;
	}

	/** A client of the test's own (close it). */
	admin(): Redis {
		return new Redis({ port: this.port });
	}

	async stop(): Promise<void> {
		await this.kill();
		rmSync(this.dir, { recursive: true, force: true });
	}
}
