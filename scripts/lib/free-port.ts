/* eslint-disable @n8n/community-nodes/no-restricted-imports -- dev tooling: tests' servers, never loaded by n8n */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * A port free now, for a server a test starts later (n8n, the emulator). Picked below the
 * kernel's ephemeral range: a port listen(0) hands out lies in that range, where every outgoing
 * connection of the machine (PostgreSQL, Redis, HTTP clients of another suite) takes its own port
 * too, and one of them may take it before n8n, started up to a minute later, listens on it (n8n
 * then exits with code 1).
 */
export async function freePort(): Promise<number> {
	const lowest = ephemeralLowest();
	for (let tries = 0; tries < 100; tries++) {
		const port = 10_000 + Math.floor(Math.random() * (lowest - 10_000));
		if (await listens(port)) return port;
	}
	return await listens(0);
}

/** The first port of the kernel's ephemeral range (Linux; 32768 elsewhere). */
function ephemeralLowest(): number {
	try {
		const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').split(/\s+/);
		return Math.max(11_000, Number(low) || 32_768);
	} catch {
		return 32_768;
	}
}

/** Listens on `port` (0: any) on every address, as n8n does, and closes: the port, or 0 if taken. */
async function listens(port: number): Promise<number> {
	return await new Promise((resolve, reject) => {
		const server = createServer();
		server.unref();
		server.on('error', (error: NodeJS.ErrnoException) =>
			port !== 0 && error.code === 'EADDRINUSE' ? resolve(0) : reject(error),
		);
		server.listen(port, () => {
			const { port: bound } = server.address() as { port: number };
			server.close(() => resolve(bound));
		});
	});
}
