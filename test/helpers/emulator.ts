import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../emulator';

export type Reply<T = unknown> = {
	status: number;
	headers: Headers;
	/** The body as sent; `body` is it parsed, when it is JSON. */
	text: string;
	body: {
		success: boolean;
		data: T;
		error?: { code: string; message: string; details?: unknown[] };
	};
};

export type CallOptions = {
	body?: unknown;
	rawBody?: string;
	key?: string | null;
	headers?: Record<string, string>;
};

/** Starts one emulator for the suite (beforeAll) and stops it (afterAll). */
export function useEmulator(options: EmulatorOptions = {}): () => RunningEmulator {
	let emulator: RunningEmulator | undefined;
	beforeAll(async () => {
		emulator = await startEmulator(options);
	});
	afterAll(async () => {
		await emulator?.close();
	});
	return () => {
		if (!emulator) throw new Error('emulator not started');
		return emulator;
	};
}

/** One HTTP call to the emulator; paths starting with /_admin go to the admin API. */
export async function call<T = unknown>(
	emulator: RunningEmulator,
	method: string,
	path: string,
	options: CallOptions = {},
): Promise<Reply<T>> {
	const origin = emulator.baseUrl.replace(/\/v1$/, '');
	const url = path.startsWith('/_admin') ? `${origin}${path}` : `${emulator.baseUrl}${path}`;
	const headers: Record<string, string> = { ...options.headers };
	const key = options.key === undefined ? emulator.apiKey : options.key;
	if (key !== null && !path.startsWith('/_admin') && !('X-API-Key' in headers)) {
		headers.Authorization ??= `Bearer ${key}`;
	}
	let body: string | undefined = options.rawBody;
	if (options.body !== undefined) {
		body = JSON.stringify(options.body);
		headers['Content-Type'] ??= 'application/json';
	}
	const res = await fetch(url, { method, headers, body });
	const text = await res.text();
	return { status: res.status, headers: res.headers, text, body: parsed(text) };
}

/** JSON bodies parsed; any other body (plain text, HTML, none) leaves `body` undefined. */
function parsed(text: string) {
	try {
		return text ? JSON.parse(text) : undefined;
	} catch {
		return undefined;
	}
}

export const admin = <T = unknown>(
	e: RunningEmulator,
	method: string,
	path: string,
	body?: unknown,
) => call<T>(e, method, `/_admin${path}`, { body });

/** The texts a bot has sent one client, oldest first, as the emulator recorded them. */
export async function sentTexts(e: RunningEmulator, clientId: string): Promise<string[]> {
	const { body } = await admin<Array<{ text: string }>>(
		e,
		'GET',
		`/sent-messages?client_id=${encodeURIComponent(clientId)}`,
	);
	return body.data.map((m) => m.text);
}

/** The Messaging Bot API credential's data for this emulator, as n8n hands it to a node. */
export function apiCredential(e: RunningEmulator, extra: Record<string, unknown> = {}) {
	return { baseUrl: e.baseUrl, apiKey: e.apiKey, authHeader: 'bearer', ...extra };
}

/**
 * A client writes each text to a bot in turn; each message's delivery is settled and the work it
 * started (`idle`) done before the next is written.
 */
export async function writeInTurn(
	e: RunningEmulator,
	idle: () => Promise<void>,
	texts: string[],
	clientId = 'cl_ada',
	botId = 'bot_shop',
): Promise<void> {
	for (const text of texts) {
		await admin(e, 'POST', '/inbound', { bot_id: botId, client_id: clientId, text });
		await admin(e, 'POST', '/settle');
		await idle();
	}
}
