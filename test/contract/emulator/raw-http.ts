/** Requests over real HTTP as a client could send them, and what every error answer must be. */
import type { RunningEmulator } from '../../emulator';
import { admin, useEmulator } from '../../helpers/emulator';

export type ErrorBody = {
	success: false;
	error: { code: string; message: string; details?: Array<{ field: string; rule: string }> };
};
export type Answer = { status: number; headers: Headers; text: string };
export type Auth = 'bearer' | 'x-api-key' | 'none' | 'wrong' | 'mismatch';
export type SendOptions = {
	body?: string | Uint8Array | ReadableStream<Uint8Array>;
	/** null: send no Content-Type of our own. */
	contentType?: string | null;
	auth?: Auth;
};

const origin = (e: RunningEmulator) => e.baseUrl.replace(/\/v1$/, '');

function authHeaders(e: RunningEmulator, auth: Auth): Record<string, string> {
	switch (auth) {
		case 'bearer':
			return { Authorization: `Bearer ${e.apiKey}` };
		case 'x-api-key':
			return { 'X-API-Key': e.apiKey };
		case 'wrong':
			return { Authorization: 'Bearer mb_test_wrong' };
		case 'mismatch':
			return { Authorization: `Bearer ${e.apiKey}`, 'X-API-Key': 'other' };
		case 'none':
			return {};
	}
}

/** One request over real HTTP; `path` is taken as is (it starts with /v1, /_admin or anything). */
export async function send(
	e: RunningEmulator,
	method: string,
	path: string,
	options: SendOptions = {},
): Promise<Answer> {
	const headers = authHeaders(e, options.auth ?? 'bearer');
	const contentType = options.contentType === undefined ? 'application/json' : options.contentType;
	if (options.body !== undefined && contentType !== null) headers['Content-Type'] = contentType;
	const init: RequestInit & { duplex?: 'half' } = {
		method,
		headers,
		body: options.body,
		signal: AbortSignal.timeout(5_000),
	};
	if (options.body instanceof ReadableStream) init.duplex = 'half';
	const res = await fetch(`${origin(e)}${path}`, init);
	return { status: res.status, headers: res.headers, text: await res.text() };
}

export const json = (value: unknown) => JSON.stringify(value);

/** A 4xx with the documented error body; returns the body. */
export function expectJsonError(r: Answer, status: number, code?: string): ErrorBody {
	expect(r.status).toBe(status);
	expect(r.headers.get('content-type')).toMatch(/^application\/json/);
	const body = JSON.parse(r.text) as ErrorBody;
	expect(body.success).toBe(false);
	expect(body.error).toEqual(
		expect.objectContaining({ code: expect.any(String), message: expect.any(String) }),
	);
	expect(body.error.message.length).toBeGreaterThan(0);
	if (code) expect(body.error.code).toBe(code);
	return body;
}

/** A 400 validation error whose message and details name `field` (or an item of it, as `field.0`). */
export function expectNamed(r: Answer, field: string): ErrorBody {
	const body = expectJsonError(r, 400, 'validation_error');
	expect(body.error.message).toContain(field);
	const fields = (body.error.details ?? []).map((d) => d.field);
	expect(fields.filter((f) => f === field || f.startsWith(`${field}.`))).not.toEqual([]);
	return body;
}

export async function expectServing(e: RunningEmulator): Promise<void> {
	const r = await send(e, 'GET', '/v1/bots');
	expect(r.status).toBe(200);
	expect((JSON.parse(r.text) as { success: boolean }).success).toBe(true);
}

export function suite(): () => RunningEmulator {
	const emulator = useEmulator();
	beforeAll(async () => {
		await admin(emulator(), 'POST', '/config', { rate_limit: 100_000 });
	});
	return emulator;
}

/** The last test of a block: whatever came before, the emulator still answers. */
export const itKeepsServing = (emulator: () => RunningEmulator) =>
	it('keeps serving afterwards', async () => {
		await expectServing(emulator());
	});
