import { EnvHttpProxyAgent, request, type Dispatcher } from 'undici';

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
	const dispatcher =
		options.dispatcher ??
		new EnvHttpProxyAgent({ connections: options.connections ?? 16, keepAliveTimeout: 10_000 });
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
