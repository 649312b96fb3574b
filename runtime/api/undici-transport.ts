// undici 6: the line that runs on Node 20.15+ as package.json promises (undici 7+ needs Node 22).
import { Agent, EnvHttpProxyAgent, request, type Dispatcher } from 'undici6';

import { authHeaders, type AuthHeader } from './auth';
import {
	classifyNetworkError,
	type Transport,
	type TransportRequest,
	type TransportResponse,
} from './transport';

/**
 * The transport for the CLI, benchmarks and tests: undici with a keep-alive pool, per-request
 * timeouts, and the proxy named by HTTPS_PROXY / HTTP_PROXY unless NO_PROXY excludes the host.
 */
export function createUndiciTransport(options: {
	apiKey: string;
	authHeader?: AuthHeader;
	dispatcher?: Dispatcher;
	connections?: number;
}): Transport & { close(): Promise<void> } {
	const pool = { connections: options.connections ?? 16, keepAliveTimeout: 10_000 };
	// The proxy agent only when a proxy is named: undici 6 warns on stderr that it is experimental.
	const dispatcher =
		options.dispatcher ?? (proxyNamed() ? new EnvHttpProxyAgent(pool) : new Agent(pool));
	const auth = authHeaders(options.apiKey, options.authHeader ?? 'bearer');
	return {
		async request(req: TransportRequest): Promise<TransportResponse> {
			try {
				const res = await request(req.url, {
					method: req.method,
					headers: { ...req.headers, ...auth },
					body: req.body,
					dispatcher,
					headersTimeout: req.timeoutMs,
					bodyTimeout: req.timeoutMs,
					...(req.signal ? { signal: req.signal } : {}),
				});
				return { status: res.statusCode, headers: res.headers, body: await res.body.text() };
			} catch (error) {
				throw classifyNetworkError(error);
			}
		},
		async close() {
			if (!options.dispatcher) await dispatcher.close();
		},
	};
}

function proxyNamed(): boolean {
	// eslint-disable-next-line @n8n/community-nodes/no-restricted-globals -- the CLI's and tests' transport, never in a node file: undici's own proxy variables
	const env = process.env;
	return !!(env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy);
}
