/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- emulator tooling: a plain Node HTTP server, never loaded by n8n */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import { registerAdmin } from './admin';
import { registerApi } from './api';
import { Core, type EmulatorOptions } from './core';
import { errors, HttpError, parseJsonBody, readBody, sendError } from './http';
import { answerError } from './profiles';
import { Router } from './router';

export interface RunningEmulator {
	baseUrl: string;
	apiKey: string;
	adminUrl: string;
	/** The emulator's internals, for tests in the same process that need to look inside. */
	core: Core;
	close(): Promise<void>;
}

/** Starts the emulator on `port` (0 = a free one) of 127.0.0.1. */
export async function startEmulator(
	options: EmulatorOptions & { port?: number; host?: string } = {},
): Promise<RunningEmulator> {
	const core = new Core(options);
	const api = new Router();
	registerApi(api, core);
	const admin = new Router();
	registerAdmin(admin, core);

	const sockets = new Set<Socket>();
	const server: Server = createServer((req, res) => {
		void handle(core, api, admin, req, res);
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	// A bad request line or header never reaches the handler; answer it and keep serving.
	server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
		if (!socket.writable) return void socket.destroy();
		// Same JSON error body as every other answer, so a client can read what went wrong.
		const big = error.code === 'HPE_HEADER_OVERFLOW';
		const text = JSON.stringify({
			success: false,
			error: big
				? { code: 'headers_too_large', message: 'Request headers are too large' }
				: {
						code: 'bad_request',
						message: `Malformed HTTP request (${error.code ?? 'parse error'})`,
					},
		});
		socket.end(
			`HTTP/1.1 ${big ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\n` +
				`Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\n` +
				`Connection: close\r\n\r\n${text}`,
		);
	});

	const host = options.host ?? '127.0.0.1';
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, host, () => resolve());
	});
	const { port } = server.address() as AddressInfo;
	const origin = `http://${host}:${port}`;
	return {
		baseUrl: `${origin}/v1`,
		apiKey: core.primaryKey,
		adminUrl: `${origin}/_admin`,
		core,
		async close() {
			core.clock.close();
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
			await core.dispatcher.close();
		},
	};
}

async function handle(
	core: Core,
	api: Router,
	admin: Router,
	req: IncomingMessage,
	res: ServerResponse,
): Promise<void> {
	const method = req.method ?? 'GET';
	// When the request arrived: what the service's limit counts, and what the log shows.
	const arrived = core.clock.iso();
	let status = 500;
	res.on('finish', () => {
		status = res.statusCode;
	});
	const url = requestUrl(req);
	if (!url) {
		sendError(res, new HttpError(400, 'validation_error', 'Request target is not a valid URL'));
		return;
	}
	const path = url.pathname;
	const caller: Caller = { key: null };
	try {
		if (path === '/_admin' || path.startsWith('/_admin/')) await dispatch(admin, req, res, url);
		else await serveApi(core, api, req, res, url, caller);
	} catch (error) {
		answerFailure(core, req, res, error, path);
	} finally {
		if (path.startsWith('/v1')) {
			const log = () =>
				core.requestLog.push({
					at: arrived,
					method,
					path,
					query: url.search,
					status: res.statusCode || status,
					key: caller.key ? `…${caller.key.slice(-4)}` : null,
				});
			if (res.writableEnded) log();
			else res.once('finish', log);
		}
	}
}

/** The API key a request was made with, once known (the request log shows its last four characters). */
type Caller = { key: string | null };

/** The request's URL, or undefined when its target is not one. */
function requestUrl(req: IncomingMessage): URL | undefined {
	try {
		// An origin-form target is appended, never resolved: `//host/v1/bots` is a path, not another host.
		const target = req.url ?? '/';
		return new URL(
			target.startsWith('/') ? `http://emulator.local${target}` : target,
			'http://emulator.local',
		);
	} catch {
		return undefined;
	}
}

/** Finds the route, reads the body and runs the handler. */
async function dispatch(
	router: Router,
	req: IncomingMessage,
	res: ServerResponse,
	url: URL,
): Promise<void> {
	const { handler, params } = router.resolve(req.method ?? 'GET', url.pathname);
	const body = parseJsonBody(req, await readBody(req));
	await handler({ req, res, url, params, body });
}

/** An API request: authentication, the rate limit and any injected fault come before the route. */
async function serveApi(
	core: Core,
	api: Router,
	req: IncomingMessage,
	res: ServerResponse,
	url: URL,
	caller: Caller,
): Promise<void> {
	const method = req.method ?? 'GET';
	const path = url.pathname;
	if (!path.startsWith('/v1/') && path !== '/v1') {
		throw new HttpError(404, 'not_found', `No endpoint at ${path}; the API lives under /v1`);
	}
	const key = core.authenticate(req.headers);
	caller.key = key;
	if (!key) throw errors.unauthorized();
	const waitSeconds = core.limiter.take(key, core.clock.now());
	if (waitSeconds > 0) throw errors.rateLimited(waitSeconds);
	const fault = core.faults.take(method, path);
	if (fault?.kind === 'hang') {
		if (fault.delay_ms === undefined) return; // never answered; the socket closes with the server
		await new Promise((resolve) => setTimeout(resolve, fault.delay_ms));
	} else if (fault?.kind === 'answer') {
		// Processed as usual; the caller gets another answer than the real one.
		await dispatch(api, req, discarding(), url);
		res.writeHead(fault.status, fault.body ? { 'Content-Type': 'text/plain' } : {});
		res.end(fault.status === 204 ? undefined : (fault.body ?? ''));
		return;
	} else if (fault) {
		throw fault.status === 500
			? errors.internal()
			: new HttpError(fault.status, 'injected_fault', `Injected fault: HTTP ${fault.status}`);
	}
	await dispatch(api, req, res, url);
}

/** Answers an error as the service would; an unexpected one is a 500 and shows in the test output. */
function answerFailure(
	core: Core,
	req: IncomingMessage,
	res: ServerResponse,
	error: unknown,
	path: string,
): void {
	if (error instanceof HttpError) answerError(core, res, error, path);
	// Not `req.destroyed`: a fully read request is auto-destroyed, which would swallow the 500.
	else if (res.destroyed || req.socket.destroyed) {
		// The caller hung up (for example its timeout fired during a hang fault): nothing to answer.
	} else {
		process.stderr.write(
			`emulator: unexpected error on ${req.method ?? 'GET'} ${path}: ${(error as Error).stack}\n`,
		);
		answerError(core, res, errors.internal(), path);
	}
}

/** A response that swallows what a handler writes (the real answer is replaced). */
function discarding(): ServerResponse {
	const sink = {
		headersSent: false,
		destroyed: false,
		statusCode: 200,
		writeHead() {
			return sink;
		},
		setHeader() {},
		end() {},
		once() {},
	};
	return sink as unknown as ServerResponse;
}
