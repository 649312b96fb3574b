/**
 * The one thing the API client needs from the outside world: send a request, get status,
 * headers and body back. Nodes build it on n8n's request helper (proxy, credentials); the CLI,
 * benchmarks and tests build it on undici. Authentication is the transport's business.
 */
export interface TransportRequest {
	method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
	url: string;
	headers: Record<string, string>;
	body?: string;
	timeoutMs: number;
	/** Cuts the request off (its caller lost the work it was for: guard.ts). */
	signal?: AbortSignal;
}

export interface TransportResponse {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	body: string;
}

/**
 * Thrown by a transport when no HTTP answer came back. `sent` tells whether the request may
 * have reached the service: a refused connection did not, a timeout or a reset might have.
 */
export class TransportError extends Error {
	constructor(
		message: string,
		readonly kind: 'connect' | 'timeout' | 'network',
		readonly sent: boolean,
		readonly code?: string,
	) {
		super(message);
		this.name = 'TransportError';
	}
}

export interface Transport {
	request(req: TransportRequest): Promise<TransportResponse>;
}

/** Error codes raised before any byte of the request left this machine. */
const NOT_SENT_CODES = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'UND_ERR_CONNECT_TIMEOUT',
]);

/** Classifies a low-level error by its code, for transports that only see an error object. */
export function classifyNetworkError(error: unknown): TransportError {
	const err = (error ?? {}) as {
		code?: string;
		name?: string;
		message?: string;
		cause?: { code?: string };
	};
	const code = err.code ?? err.cause?.code;
	const message = err.message ?? String(error);
	if (code && NOT_SENT_CODES.has(code)) return new TransportError(message, 'connect', false, code);
	if (
		code === 'ETIMEDOUT' ||
		code === 'ECONNABORTED' ||
		code === 'UND_ERR_HEADERS_TIMEOUT' ||
		code === 'UND_ERR_BODY_TIMEOUT' ||
		err.name === 'TimeoutError' ||
		err.name === 'AbortError'
	) {
		return new TransportError(message, 'timeout', true, code);
	}
	return new TransportError(message, 'network', true, code);
}
