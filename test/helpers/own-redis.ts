/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test tooling: a Redis server of the test's own, killed and started again, never loaded by n8n */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Redis } from 'ioredis';

import { onFreePort } from './on-free-port';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The port was taken by another process before this server bound it. */
class PortTaken extends Error {
	constructor(port: number) {
		super(`port ${port} was taken before redis-server bound it`);
	}
}

/**
 * A redis-server of the test's own on a free port, with no persistence unless `args` say how
 * (then it comes back from its own folder's snapshot): for tests that kill it, restart it, or
 * change its users or its configuration, which the machine's shared Redis must never see.
 */
export class OwnRedis {
	private readonly dir = mkdtempSync(path.join(tmpdir(), 'mb-own-redis-'));
	private server?: ChildProcess;

	private constructor(
		private at: number,
		private readonly args: readonly string[],
	) {}

	/** The port it listens on: kept across restarts, so a restart is the same server coming back. */
	get port(): number {
		return this.at;
	}

	/**
	 * `args`: redis-server's own (persistence, renamed commands); none: it keeps nothing. Started on
	 * another free port when the one found free was taken before the server bound it (another
	 * test's own server, restarting on its port, took it in between).
	 */
	static async start(...args: string[]): Promise<OwnRedis> {
		const redis = new OwnRedis(0, args.length > 0 ? args : ['--save', '', '--appendonly', 'no']);
		await onFreePort(
			async (port) => {
				redis.at = port;
				await redis.restart();
			},
			(error) => error instanceof PortTaken,
		);
		return redis;
	}

	/**
	 * Starts it (again), listening when resolved. Only this server's answer counts (its process id
	 * in INFO): another server on the port is never taken for it.
	 */
	async restart(): Promise<void> {
		const args = ['--port', String(this.port), '--dir', this.dir, ...this.args];
		const server = spawn('redis-server', args);
		this.server = server;
		let output = '';
		server.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		for (let waited = 0; waited < 3000; waited += 10) {
			if (server.exitCode !== null) {
				if (/Address already in use/.test(output)) throw new PortTaken(this.port);
				throw new Error(`redis-server exited (${server.exitCode}) on ${this.port}: ${output}`);
			}
			if ((await this.answeringPid()) === server.pid) return;
			await sleep(10);
		}
		throw new Error(`redis-server did not start on ${this.port}`);
	}

	/** The process id of the server answering on the port, if one does. */
	private async answeringPid(): Promise<number | undefined> {
		// INFO, not a store's probe: that would write its own marker into the new Redis.
		const probe = new Redis({ port: this.port, lazyConnect: true, retryStrategy: () => null });
		// Refused while it starts: the answer below says so, not an 'unhandled error' line.
		probe.on('error', () => undefined);
		const info = await probe.info('server').catch(() => '');
		probe.disconnect();
		const pid = /process_id:(\d+)/.exec(info)?.[1];
		return pid === undefined ? undefined : Number(pid);
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
