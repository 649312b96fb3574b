/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the studio server runs in a terminal, never loaded by n8n */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import { FileError, StudioFiles } from './file-routes';
import { OpenedFiles, TOKEN_HEADER, hostAllowed, newToken, tokenMatches } from './guard';
import { VersionsError, type StudioVersions } from './versions';
import { N8nError, listWorkflows, openWorkflow, saveScenarioNode, type N8nTarget } from './n8n-api';

/**
 * The Scenario Studio's local server: the page's files, the scenario files it was opened on, and
 * a way to n8n's API. Every API request carries the token of the page's address; a write goes
 * only to an opened file.
 */

export interface StudioOptions {
	files: readonly string[];
	/**
	 * The folder the studio was started for: its .json files may be listed, opened, saved and
	 * created too. Without it, only `files`.
	 */
	root?: string;
	/** The built page: index.html, studio.js, studio.css and chunks/. */
	pageDir: string;
	host?: string;
	port?: number;
	token?: string;
	/** A scenario's traffic per state and edge over a period, from a state store; none without one. */
	traffic?: (query: TrafficAsked) => Promise<unknown>;
	/** The same period's funnel, each version apart (the reading of Get Analytics). */
	funnel?: (query: TrafficAsked) => Promise<unknown>;
	/** The scenario's versions in the state store: listed, rolled back to, conversations moved. */
	versions?: StudioVersions;
}

/** What the page asks /api/traffic: the scenario it shows and the days (YYYY-MM-DD) it picked. */
interface TrafficAsked {
	scenario: string;
	from?: string;
	to?: string;
}

export interface RunningStudio {
	url: string;
	origin: string;
	token: string;
	close(): Promise<void>;
}

const PAGE_FILES: Record<string, [file: string, type: string]> = {
	'/': ['index.html', 'text/html; charset=utf-8'],
	'/studio.js': ['studio.js', 'text/javascript; charset=utf-8'],
	'/studio.css': ['studio.css', 'text/css; charset=utf-8'],
};

/** The chunks the page's script imports when it needs them (the JSON editor, Prettier). */
const CHUNK = /^\/chunks\/[\w-]+\.js$/;

function pageFile(pathname: string): [file: string, type: string] | undefined {
	if (CHUNK.test(pathname)) return [pathname.slice(1), 'text/javascript; charset=utf-8'];
	return PAGE_FILES[pathname];
}

const MAX_BODY = 5_000_000;

export async function startStudio(options: StudioOptions): Promise<RunningStudio> {
	const host = options.host ?? '127.0.0.1';
	const token = options.token ?? newToken();
	const opened = new OpenedFiles(options.files.map((f) => path.resolve(f)));
	const files = new StudioFiles(opened, options.root);
	let port = 0;
	const server = createServer((req, res) => {
		handle(req, res).catch((error: unknown) => {
			const status =
				error instanceof HttpError ||
				error instanceof N8nError ||
				error instanceof FileError ||
				error instanceof VersionsError
					? error.status
					: 500;
			send(res, status, { error: (error as Error).message });
		});
	});

	async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		if (!hostAllowed(req.headers.host, host, port))
			return send(res, 403, { error: 'This server answers only on its own address' });
		const url = new URL(req.url ?? '/', 'http://studio.local');
		const page = pageFile(url.pathname);
		if (page && req.method === 'GET')
			return sendFile(res, path.join(options.pageDir, page[0]), page[1]);
		if (!url.pathname.startsWith('/api/')) return send(res, 404, { error: 'Not found' });
		if (!tokenMatches(token, req.headers[TOKEN_HEADER]))
			return send(res, 401, {
				error: 'The studio token is missing or wrong: open the address the command printed',
			});
		return api(req, res, url, options, files);
	}

	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, host, () => resolve());
	});
	port = (server.address() as AddressInfo).port;
	const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
	return {
		url: `${origin}/?token=${token}`,
		origin,
		token,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/** The API behind the token: the session, the opened files, traffic, versions, the way to n8n. */
async function api(
	req: IncomingMessage,
	res: ServerResponse,
	url: URL,
	options: StudioOptions,
	files: StudioFiles,
): Promise<void> {
	const route = `${req.method} ${url.pathname}`;
	switch (route) {
		case 'GET /api/session':
			return send(res, 200, {
				files: options.files.map((f) => path.resolve(f)),
				traffic: Boolean(options.traffic),
				versions: Boolean(options.versions),
				...(files.root ? { root: files.root } : {}),
			});
		case 'GET /api/files':
			return send(res, 200, { root: files.root, files: await files.list() });
		case 'GET /api/file':
		case 'GET /api/layout':
			return send(res, 200, await files.read(pathOf(url), url.pathname === '/api/layout'));
		case 'PUT /api/file':
		case 'PUT /api/layout':
			return send(
				res,
				200,
				await files.write(pathOf(url), await body(req), url.pathname === '/api/layout'),
			);
		case 'GET /api/traffic':
		case 'GET /api/funnel': {
			const read = url.pathname === '/api/funnel' ? options.funnel : options.traffic;
			if (!read) return send(res, 204);
			return send(res, 200, await read(trafficAsked(url.searchParams)));
		}
		case 'POST /api/versions/list':
		case 'POST /api/versions/rollback':
		case 'POST /api/versions/preview':
		case 'POST /api/versions/move': {
			if (!options.versions) return send(res, 204);
			const what = url.pathname.slice('/api/versions/'.length);
			return send(res, 200, await options.versions.answer(what, await json(req)));
		}
		case 'POST /api/n8n/workflows': {
			const { baseUrl, apiKey } = target({ ...(await json(req)), workflowId: '-' });
			return send(res, 200, { workflows: await listWorkflows({ baseUrl, apiKey }) });
		}
		case 'POST /api/n8n/open':
			return send(res, 200, await openWorkflow(target(await json(req))));
		case 'POST /api/n8n/save': {
			const input = await json(req);
			const saved = await saveScenarioNode(target(input), {
				nodeName: text(input.nodeName, 'Node'),
				scenario: text(input.scenario, 'Scenario'),
				baseline: text(input.baseline, 'Baseline'),
			});
			return send(res, 200, saved);
		}
		default:
			return send(res, 404, { error: `No ${route}` });
	}
}

const pathOf = (url: URL) => url.searchParams.get('path') ?? '';

class HttpError extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message);
	}
}

function trafficAsked(query: URLSearchParams): TrafficAsked {
	const day = (name: string, label: string) => {
		const value = query.get(name) || undefined;
		if (value !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(value))
			throw new HttpError(400, `${label} is not a day (YYYY-MM-DD): "${value}"`);
		return value;
	};
	const [from, to] = [day('from', 'From'), day('to', 'To')];
	if (from && to && from > to) throw new HttpError(400, `From (${from}) is after To (${to})`);
	return { scenario: text(query.get('scenario'), 'Scenario'), from, to };
}

function target(input: Record<string, unknown>): N8nTarget {
	return {
		baseUrl: text(input.baseUrl, 'n8n URL'),
		apiKey: text(input.apiKey, 'API key'),
		workflowId: text(input.workflowId, 'Workflow ID'),
	};
}

function text(value: unknown, label: string): string {
	if (typeof value !== 'string' || value.trim() === '')
		throw new HttpError(400, `${label} is empty`);
	return value.trim();
}

async function body(req: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of req) {
		size += (chunk as Buffer).length;
		if (size > MAX_BODY) throw new HttpError(413, 'The request is over 5 MB');
		chunks.push(chunk as Buffer);
	}
	return Buffer.concat(chunks).toString('utf8');
}

async function json(req: IncomingMessage): Promise<Record<string, unknown>> {
	try {
		const value: unknown = JSON.parse(await body(req));
		if (value && typeof value === 'object') return value as Record<string, unknown>;
	} catch {
		// reported below
	}
	throw new HttpError(400, 'The request body is not a JSON object');
}

async function sendFile(res: ServerResponse, file: string, type: string): Promise<void> {
	let content: Buffer;
	try {
		content = await readFile(file);
	} catch {
		return send(res, 500, {
			error: `The studio page is not built (${path.basename(file)} missing): run npm run build`,
		});
	}
	res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store', ...SECURITY_HEADERS });
	res.end(content);
}

/** The page loads nothing from elsewhere, and no other site may frame it. */
const SECURITY_HEADERS = {
	'content-security-policy':
		"default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'",
	'x-content-type-options': 'nosniff',
};

function send(res: ServerResponse, status: number, payload?: unknown): void {
	if (status === 204 || payload === undefined) {
		res.writeHead(status, SECURITY_HEADERS);
		res.end();
		return;
	}
	res.writeHead(status, { 'content-type': 'application/json', ...SECURITY_HEADERS });
	res.end(JSON.stringify(payload));
}
