/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the trigger's own port: node:http receives deliveries outside n8n's webhook path (as n8n's MQTT or Kafka triggers keep their own connections), so a burst never waits for n8n's per-request work */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { answerSafely, type Answer } from './answer';
import { ConnectionGuard, type ConnectionLimits } from './connection-guard';
import { DELIVERY_LIMITS, type Delivery } from './reader';

export interface ListenerLimits extends ConnectionLimits {
	/** Bodies above this are answered 413 (from Content-Length before reading, or while reading). */
	maxBytes: number;
	/** A connection must send its whole request head within this. */
	headersTimeoutMs: number;
	/** A connection must send its whole request, body included, within this. */
	requestTimeoutMs: number;
	/** A connection kept alive after an answer is closed after this long without a request. */
	keepAliveTimeoutMs: number;
}

/** Safe defaults: deliveries are small and quick; each bound is an option of the node. */
export const LISTENER_LIMITS: ListenerLimits = {
	maxBytes: DELIVERY_LIMITS.maxBytes,
	headersTimeoutMs: 10_000,
	requestTimeoutMs: 30_000,
	keepAliveTimeoutMs: 5_000,
	maxConnections: 1_000,
	maxConnectionsPerAddress: 500,
};

export interface ListenerOptions {
	port: number;
	host: string;
	/** The one path deliveries are posted to, e.g. `/messaging-bot`. */
	path: string;
	receive(delivery: Delivery): Promise<Answer>;
	/** Logs a failure once (the request is answered 503). */
	log?: (message: string) => void;
	limits?: Partial<ListenerLimits>;
}

export interface RunningListener {
	url: string;
	close(): Promise<void>;
}

/** Starts an HTTP server that hands each POST on `path` to `receive` and answers as it says. */
export async function startListener(options: ListenerOptions): Promise<RunningListener> {
	const limits = { ...LISTENER_LIMITS, ...options.limits };
	const log = options.log ?? (() => undefined);
	const guard = new ConnectionGuard(limits);
	const server: Server = createServer(
		{
			headersTimeout: limits.headersTimeoutMs,
			requestTimeout: limits.requestTimeoutMs,
			keepAliveTimeout: limits.keepAliveTimeoutMs,
			// Node checks the two timeouts above this often (its default, 30 s, would stretch them).
			connectionsCheckingInterval: 1_000,
		},
		(req, res) => {
			guard.mark(req.socket, true);
			res.once('close', () => guard.mark(req.socket, false));
			void handle(req, res, options, limits.maxBytes, log);
		},
	);
	server.on('connection', (socket) => guard.admit(socket));
	// A client that breaks its own connection is its business; the server goes on.
	server.on('clientError', (_error, socket) => socket.destroy());
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

async function handle(
	req: IncomingMessage,
	res: ServerResponse,
	options: ListenerOptions,
	maxBytes: number,
	log: (message: string) => void,
): Promise<void> {
	if (req.method !== 'POST' || (req.url ?? '').split('?')[0] !== options.path)
		return finish(req, res, {
			status: 404,
			body: { success: false, message: `POST deliveries to ${options.path}` },
		});
	const declared = Number(req.headers['content-length']);
	if (declared > maxBytes) return finish(req, res, tooLarge(maxBytes));
	const raw = await readBody(req, maxBytes);
	if (raw === 'too large') return finish(req, res, tooLarge(maxBytes));
	if (raw === 'broken') return;
	const answer = await answerSafely(
		async () => await options.receive({ raw, headers: req.headers }),
		log,
	);
	finish(req, res, answer);
}

function tooLarge(maxBytes: number): Answer {
	return {
		status: 413,
		body: { success: false, message: `Rejected: the body is larger than ${maxBytes} bytes` },
	};
}

/**
 * Writes the answer. A request whose body was not read whole (too large) is answered, then the
 * rest of what the client sends is read and dropped for a moment before its connection closes (a
 * lingering close): closing at once would reset the connection with data unread, and a reset can
 * throw the answer away before the client reads it. The connection closes LINGER_MS after the
 * answer, or after LINGER_IDLE_MS without data. Bounded by time, not bytes: a client sending fast
 * on loopback passes any byte cap in milliseconds, before a busy client has read the answer.
 */
function finish(req: IncomingMessage, res: ServerResponse, answer: Answer): void {
	if (res.headersSent || res.destroyed) return;
	res.writeHead(answer.status, { 'Content-Type': 'application/json' });
	res.end(JSON.stringify(answer.body));
	if (req.complete) return;
	const socket = req.socket;
	const answeredAt = Date.now();
	socket.on('data', () => {
		if (Date.now() - answeredAt > LINGER_MS) socket.destroy();
	});
	socket.setTimeout(LINGER_IDLE_MS, () => socket.destroy());
	req.resume();
}

/** How long a refused body is read and dropped, at most, before its connection is closed. */
const LINGER_MS = 2_000;
/** How long a refused body's connection stays open with nothing sent. */
const LINGER_IDLE_MS = 2_000;

/** The body, or why there is none: over `maxBytes` (stops reading), or the connection broke. */
function readBody(
	req: IncomingMessage,
	maxBytes: number,
): Promise<Uint8Array | 'too large' | 'broken'> {
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		let size = 0;
		const onData = (chunk: Buffer) => {
			size += chunk.length;
			if (size <= maxBytes) {
				chunks.push(chunk);
				return;
			}
			req.off('data', onData);
			req.pause();
			chunks.length = 0;
			resolve('too large');
		};
		req.on('data', onData);
		req.once('end', () => resolve(Buffer.concat(chunks)));
		req.once('error', () => resolve('broken'));
		req.once('close', () => resolve(req.complete ? Buffer.concat(chunks) : 'broken'));
	});
}
