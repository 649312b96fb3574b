/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the own-port listener's sockets (node:net), outside n8n's webhook path */
import type { Socket } from 'node:net';

export interface ConnectionLimits {
	/** Open connections at most; over it, the longest-idle one is closed. */
	maxConnections: number;
	/** Open connections from one address at most; over it, that address's longest-idle one closes. */
	maxConnectionsPerAddress: number;
}

type Tracked = { address: string; busy: boolean };

/**
 * Keeps the listener's open connections within bounds without refusing the newcomer: a connection
 * over a limit closes the one that has been idle longest (connected and silent, or kept alive after
 * its answer), so idle or slow connections held open by anyone never lock a sender out. A
 * connection in the middle of a request is never closed; when every one is busy, the newcomer is.
 */
export class ConnectionGuard {
	/** Oldest idle first: a Map keeps insertion order, and going idle re-inserts. */
	private readonly open = new Map<Socket, Tracked>();
	private readonly perAddress = new Map<string, number>();

	constructor(private readonly limits: ConnectionLimits) {}

	get size(): number {
		return this.open.size;
	}

	admit(socket: Socket): void {
		const address = socket.remoteAddress ?? '?';
		this.open.set(socket, { address, busy: false });
		this.perAddress.set(address, (this.perAddress.get(address) ?? 0) + 1);
		socket.once('close', () => this.forget(socket));
		if ((this.perAddress.get(address) ?? 0) > this.limits.maxConnectionsPerAddress)
			this.closeIdlest(socket, address);
		if (this.open.size > this.limits.maxConnections) this.closeIdlest(socket);
	}

	/** A request began (busy) or its answer was sent (idle again, now the newest idle one). */
	mark(socket: Socket, busy: boolean): void {
		const tracked = this.open.get(socket);
		if (!tracked) return;
		this.open.delete(socket);
		this.open.set(socket, { ...tracked, busy });
	}

	private closeIdlest(newcomer: Socket, address?: string): void {
		for (const [socket, tracked] of this.open) {
			if (socket === newcomer || tracked.busy) continue;
			if (address !== undefined && tracked.address !== address) continue;
			this.drop(socket);
			return;
		}
		this.drop(newcomer);
	}

	private drop(socket: Socket): void {
		this.forget(socket);
		socket.destroy();
	}

	private forget(socket: Socket): void {
		const tracked = this.open.get(socket);
		if (!tracked) return;
		this.open.delete(socket);
		const left = (this.perAddress.get(tracked.address) ?? 1) - 1;
		if (left > 0) this.perAddress.set(tracked.address, left);
		else this.perAddress.delete(tracked.address);
	}
}
