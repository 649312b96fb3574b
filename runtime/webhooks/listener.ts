/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the trigger's own port: node:http receives deliveries outside n8n's webhook path (as n8n's MQTT or Kafka triggers keep their own connections), so a burst never waits for n8n's per-request work */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Delivery } from './intake';

/** What the listener answers a request with. */
export type Answer = { status: number; body: object };

export interface ListenerOptions {
	port: number;
	host: string;
	/** The one path deliveries are posted to, e.g. `/messaging-bot`. */
	path: string;
	receive(delivery: Delivery): Promise<Answer>;
	/** Bodies above this are refused (the service's deliveries are small). */
	maxBytes?: number;
}

export interface RunningListener {
	url: string;
	close(): Promise<void>;
}

/** Starts an HTTP server that hands each POST on `path` to `receive` and answers as it says. */
export async function startListener(options: ListenerOptions): Promise<RunningListener> {
	const maxBytes = options.maxBytes ?? 1_048_576;
	const server: Server = createServer((req, res) => {
		const answer = (a: Answer) => {
			res.writeHead(a.status, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify(a.body));
		};
		if (req.method !== 'POST' || (req.url ?? '').split('?')[0] !== options.path) {
			answer({
				status: 404,
				body: { success: false, message: `POST deliveries to ${options.path}` },
			});
			return;
		}
		readBody(req, maxBytes).then(
			async (raw) =>
				answer(
					// Not kept (its store failed, say): 503 with the reason, so the service retries it.
					await options.receive({ raw, headers: req.headers }).catch((error: Error) => ({
						status: 503,
						body: { success: false, message: error.message },
					})),
				),
			(error: Error) => answer({ status: 413, body: { success: false, message: error.message } }),
		);
	});
	server.keepAliveTimeout = 5_000;
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port, options.host, () => {
			server.off('error', reject);
			resolve();
		});
	});
	// Port 0 asks the system for a free one: the URL says which it gave.
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://${options.host === '0.0.0.0' ? '127.0.0.1' : options.host}:${port}${options.path}`,
		close: async () =>
			await new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}

function readBody(req: IncomingMessage, maxBytes: number): Promise<Uint8Array> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > maxBytes) {
				reject(new Error(`The body is larger than ${maxBytes} bytes`));
				req.destroy();
				return;
			}
			chunks.push(chunk);
		});
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}
