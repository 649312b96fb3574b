/** What the contract tests of the public API share: its record shapes, assertions and requests. */
import type { RunningEmulator } from '../../emulator';
import type { Client, HistoryMessage as HistoryItem } from '../../emulator/state';
import { admin, call, useEmulator, type Reply } from '../../helpers/emulator';

export type Bot = {
	id: string;
	name: string;
	status: string;
	created_at: string;
	channels: string[];
};
// The spec's client record and history item, as the emulator stores them.
export type { Client, HistoryItem };
export type FullClient = Client & {
	messages: HistoryItem[];
	message_count: number;
	orders: Array<Record<string, unknown>>;
};
export type Sent = {
	message_id: string;
	bot_id: string;
	client_id: string;
	text: string;
	type: string;
	channel: string;
	status: string;
	timestamp: string;
};
export type Stats = {
	bot_id: string;
	from: string;
	to: string;
	new_clients: number;
	messages: number;
	active_clients: number;
	conversion: number;
};

export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const CLIENT_KEYS = [
	'created_at',
	'custom_fields',
	'email',
	'first_name',
	'id',
	'last_name',
	'phone',
	'tags',
	'updated_at',
];
export const SEED_CLIENTS = ['cl_ada', 'cl_grace', 'cl_alan', 'cl_katherine', 'cl_linus'];

/** One emulator per describe block, with a rate limit that never interferes, reset before each test. */
export function emulatorForSuite(): () => RunningEmulator {
	const emulator = useEmulator();
	beforeAll(async () => {
		await admin(emulator(), 'POST', '/config', { rate_limit: 100_000 });
	});
	beforeEach(async () => {
		await admin(emulator(), 'POST', '/reset');
	});
	return emulator;
}

export function expectError(
	r: Reply,
	status: number,
	code: string,
	message?: string | RegExp,
): void {
	expect(r.status).toBe(status);
	expect(r.body.success).toBe(false);
	expect(r.body.error?.code).toBe(code);
	if (typeof message === 'string') expect(r.body.error?.message).toBe(message);
	else if (message) expect(r.body.error?.message).toMatch(message);
}

/** A 400 validation error whose message and details both name `field`. */
export function expectInvalid(r: Reply, field: string): void {
	expectError(r, 400, 'validation_error');
	expect(r.body.error?.message).toContain(field);
	const fields = ((r.body.error?.details ?? []) as Array<{ field: string }>).map((d) => d.field);
	expect(fields.some((f) => f === field || f.startsWith(`${field}.`))).toBe(true);
}

export const qs = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;

export async function today(e: RunningEmulator): Promise<string> {
	const { body } = await admin<{ now: string }>(e, 'GET', '/clock');
	return body.data.now.slice(0, 10);
}

export function addDays(ymd: string, days: number): string {
	return new Date(Date.parse(`${ymd}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

export async function createClient(
	e: RunningEmulator,
	body: Record<string, unknown>,
): Promise<Client> {
	const r = await call<Client>(e, 'POST', '/clients', { body });
	expect(r.status).toBe(201);
	return r.body.data;
}

export async function inbound(
	e: RunningEmulator,
	clientId: string,
	text: string,
	extra: { bot_id?: string; channel?: string } = {},
): Promise<void> {
	const r = await admin(e, 'POST', '/inbound', {
		bot_id: 'bot_shop',
		client_id: clientId,
		text,
		...extra,
	});
	expect(r.status).toBe(201);
}

export async function stats(e: RunningEmulator, botId: string, query = ''): Promise<Stats> {
	const r = await call<Stats>(e, 'GET', `/bots/${botId}/stats${query}`);
	expect(r.status).toBe(200);
	expect(r.body.success).toBe(true);
	return r.body.data;
}

export async function history(e: RunningEmulator, clientId: string): Promise<HistoryItem[]> {
	const r = await call<HistoryItem[]>(e, 'GET', `/clients/${clientId}/messages?limit=1000`);
	expect(r.status).toBe(200);
	return r.body.data;
}

export async function search(
	e: RunningEmulator,
	params: Record<string, string>,
): Promise<Client[]> {
	const r = await call<Client[]>(e, 'GET', `/clients${qs(params)}`);
	expect(r.status).toBe(200);
	expect(r.body.success).toBe(true);
	return r.body.data;
}

export const ids = (list: Array<{ id: string }>) => list.map((c) => c.id);

/**
 * An object (with nesting) whose compact JSON is exactly `bytes` bytes of UTF-8, padded with
 * `filler` (which may be a multi-byte character).
 */
export function customFieldsOfBytes(bytes: number, filler: string): Record<string, unknown> {
	const make = (pad: string) => ({ profile: { tier: 'gold', scores: [1, 2.5, null, true] }, pad });
	const room = bytes - Buffer.byteLength(JSON.stringify(make('')));
	const per = Buffer.byteLength(filler);
	const value = make(filler.repeat(Math.floor(room / per)) + 'x'.repeat(room % per));
	expect(Buffer.byteLength(JSON.stringify(value))).toBe(bytes);
	return value;
}
