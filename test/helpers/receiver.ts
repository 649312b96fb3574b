/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling: a plain Node HTTP server, never loaded by n8n */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Received = { headers: IncomingHttpHeaders; raw: Buffer; at: number };
export type Answer = { status: number; delayMs?: number };

/**
 * A webhook receiver for tests: records every request with its raw bytes and answers with the
 * queued answers in turn, then with `fallback`.
 */
export class Receiver {
	readonly received: Received[] = [];
	readonly queue: Answer[] = [];
	fallback: Answer = { status: 200 };
	private server: Server | undefined;
	url = '';

	async start(): Promise<this> {
		this.server = createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (c: Buffer) => chunks.push(c));
			req.on('end', () => {
				this.received.push({ headers: req.headers, raw: Buffer.concat(chunks), at: Date.now() });
				const answer = this.queue.shift() ?? this.fallback;
				const send = () => {
					if (res.destroyed) return;
					res.writeHead(answer.status, { 'Content-Type': 'text/plain' });
					res.end('ok');
				};
				if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
				else send();
			});
		});
		await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
		return this;
	}

	bodies(): Array<{
		event: string;
		data: Record<string, unknown>;
		webhook_id: string;
		timestamp: string;
	}> {
		return this.received.map((r) => JSON.parse(r.raw.toString('utf8')));
	}

	async stop(): Promise<void> {
		this.server?.closeAllConnections();
		await new Promise<void>((resolve) => this.server?.close(() => resolve()));
	}
}
