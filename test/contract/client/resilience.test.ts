import { NetworkError, SendOutcomeUnknownError, ServerError } from '../../../runtime/api';
import { PROFILES } from '../../emulator';
import { busiestWindow } from '../../helpers/busiest-window';
import { clientFor } from '../../helpers/client';
import { admin, useEmulator } from '../../helpers/emulator';

type Logged = { at: string; method: string; path: string; query: string; status: number };
const requests = async (e: Parameters<typeof admin>[0]) =>
	(await admin<Logged[]>(e, 'GET', '/requests')).body.data;

// docs/service-assumptions.md#a3, #a5, #a16, #a17; under the emulator's default and variant answers
// (errors as plain text or HTML there, 204 for a sent message, history under other names).
describe.each(PROFILES)(
	'runtime client: rate limit, retries, pagination (%s profile)',
	(profile) => {
		// The window is scaled to 2 s so that three windows' worth of requests run in seconds.
		const emulator = useEmulator({ rateLimit: 100, rateWindowMs: 2_000, profile });
		beforeEach(async () => {
			await admin(emulator(), 'POST', '/reset');
			await admin(emulator(), 'POST', '/config', { rate_limit: 100, rate_window_ms: 2_000 });
		});

		it('holds 100 requests per window under 10 concurrent callers, with no 429', async () => {
			const client = clientFor(emulator(), { rateLimit: { limit: 100, windowMs: 2_000 } });
			const started = Date.now();
			const callers = Array.from({ length: 10 }, async () => {
				for (let i = 0; i < 30; i++) await client.listBots();
			});
			await Promise.all(callers);
			const elapsed = Date.now() - started;
			await client.close();
			const log = await requests(emulator());
			expect(log).toHaveLength(300);
			expect(log.filter((r) => r.status !== 200)).toEqual([]);
			expect(busiestWindow(log, 2_000)).toBeLessThanOrEqual(100);
			// 300 requests at 100 per window need at least two full windows of waiting.
			expect(elapsed).toBeGreaterThanOrEqual(4_000);
		});

		it('shares one budget between client instances of the same key', async () => {
			const a = clientFor(emulator(), { rateLimit: { limit: 100, windowMs: 2_000 } });
			const b = clientFor(emulator(), { rateLimit: { limit: 100, windowMs: 2_000 } });
			await Promise.all([
				(async () => {
					for (let i = 0; i < 80; i++) await a.listBots();
				})(),
				(async () => {
					for (let i = 0; i < 80; i++) await b.listBots();
				})(),
			]);
			await Promise.all([a.close(), b.close()]);
			const log = await requests(emulator());
			expect(log.filter((r) => r.status === 429)).toEqual([]);
			expect(busiestWindow(log, 2_000)).toBeLessThanOrEqual(100);
		});

		it('waits as long as Retry-After says when the service refuses with 429', async () => {
			await admin(emulator(), 'POST', '/config', { rate_limit: 5, rate_window_ms: 1_000 });
			// This client believes in a far higher limit, so only the service's 429 can slow it down.
			const client = clientFor(emulator(), { rateLimit: { limit: 10_000, windowMs: 1_000 } });
			for (let i = 0; i < 8; i++) await client.listBots();
			await client.close();
			const log = await requests(emulator());
			expect(log.filter((r) => r.status === 200)).toHaveLength(8);
			const refused = log.filter((r) => r.status === 429);
			expect(refused.length).toBeGreaterThanOrEqual(1);
			const firstRefusal = Date.parse(refused[0].at);
			const nextAccepted = log.find(
				(r) => r.status === 200 && Date.parse(r.at) > firstRefusal,
			) as Logged;
			expect(Date.parse(nextAccepted.at) - firstRefusal).toBeGreaterThanOrEqual(900);
		});

		it('retries a safe operation after 5xx and succeeds', async () => {
			await admin(emulator(), 'POST', '/faults', { path: '/v1/bots', count: 2 });
			const client = clientFor(emulator());
			await expect(client.listBots()).resolves.toHaveLength(3);
			expect(client.requestCount).toBe(3);
			await client.close();
		});

		it('gives up after a bounded number of retries and says how many were made', async () => {
			await admin(emulator(), 'POST', '/faults', { path: '/v1/clients/cl_ada/tags', count: 50 });
			const client = clientFor(emulator(), { maxRetries: 3 });
			const error = await client.updateTags('cl_ada', { add: ['x'] }).catch((e: unknown) => e);
			expect(error).toBeInstanceOf(ServerError);
			expect(error).toMatchObject({
				attempts: 4,
				message: 'Internal server error (gave up after 4 attempts)',
			});
			await client.close();
		});

		it('never re-sends a message after a 5xx: one request, and the error says to check history', async () => {
			await admin(emulator(), 'POST', '/faults', { path: '/v1/bots/bot_shop/messages', count: 5 });
			const client = clientFor(emulator());
			const error = await client
				.sendMessage('bot_shop', { client_id: 'cl_ada', text: 'Once only' })
				.catch((e: unknown) => e);
			expect(error).toBeInstanceOf(SendOutcomeUnknownError);
			expect((error as Error).message).toMatch(
				/may or may not have been sent.*check the client's message history/,
			);
			expect((await requests(emulator())).filter((r) => r.path.endsWith('/messages'))).toHaveLength(
				1,
			);
			await client.close();
		});

		it('never re-sends a message after a timeout', async () => {
			// Never answered, so only the timeout ends it: undici checks a headers timeout on a
			// coarse (about 0.5 s) tick, and an answer after a fixed delay could win that race
			// on a loaded machine.
			await admin(emulator(), 'POST', '/faults', {
				path: '/v1/bots/bot_shop/messages',
				kind: 'hang',
			});
			const client = clientFor(emulator(), { timeoutMs: 200 });
			const error = await client
				.sendMessage('bot_shop', { client_id: 'cl_ada', text: 'Slow' })
				.catch((e: unknown) => e);
			expect(error).toBeInstanceOf(SendOutcomeUnknownError);
			expect(client.requestCount).toBe(1);
			await client.close();
		});

		it('re-sends a message after 429, where the service did nothing, and it arrives once', async () => {
			await admin(emulator(), 'POST', '/faults', {
				path: '/v1/bots/bot_shop/messages',
				status: 429,
				count: 1,
			});
			const client = clientFor(emulator());
			await client.sendMessage('bot_shop', { client_id: 'cl_ada', text: 'After a 429' });
			const sent = (await admin<Array<{ text: string }>>(emulator(), 'GET', '/sent-messages')).body
				.data;
			expect(sent.map((m) => m.text)).toEqual(['After a 429']);
			expect(client.requestCount).toBe(2);
			await client.close();
		});

		it('retries when the connection is refused (nothing was sent), then reports it', async () => {
			const { MessagingBotClient } = await import('../../../runtime/api');
			const { createUndiciTransport } = await import('../../../runtime/api/undici-transport');
			const { realClock } = await import('../../helpers/client');
			const transport = createUndiciTransport({ apiKey: 'k' });
			const client = new MessagingBotClient({
				baseUrl: 'http://127.0.0.1:9/v1',
				transport,
				clock: realClock,
				apiKey: 'k',
				backoffMs: 5,
				maxRetries: 2,
			});
			const error = await client
				.sendMessage('bot_shop', { client_id: 'cl_ada', text: 'x' })
				.catch((e: unknown) => e);
			expect(error).toBeInstanceOf(NetworkError);
			expect(error).toMatchObject({ kind: 'connect', mayHaveReachedService: false, attempts: 3 });
			await transport.close();
		});

		it('returns all of 2,500 clients in 3 requests, and a limit of 120 in 1', async () => {
			await admin(emulator(), 'POST', '/config', { rate_limit: 100_000 });
			await admin(emulator(), 'POST', '/clients', { count: 2_495 });
			const client = clientFor(emulator(), { rateLimit: { limit: 100_000, windowMs: 60_000 } });
			const ids: string[] = [];
			for await (const c of client.iterateClients()) ids.push(c.id);
			expect(ids).toHaveLength(2_500);
			expect(new Set(ids).size).toBe(2_500);
			expect(client.requestCount).toBe(3);
			const limited: string[] = [];
			for await (const c of client.iterateClients({}, { max: 120 })) limited.push(c.id);
			expect(limited).toEqual(ids.slice(0, 120));
			expect(client.requestCount).toBe(4);
			const log = await requests(emulator());
			expect(log.at(-1)?.query).toBe('?limit=120&offset=0');
			await client.close();
		});

		it('pages through message history', async () => {
			const client = clientFor(emulator(), { rateLimit: { limit: 100_000, windowMs: 60_000 } });
			for (let i = 0; i < 5; i++) {
				await admin(emulator(), 'POST', '/inbound', {
					bot_id: 'bot_shop',
					client_id: 'cl_grace',
					text: `m${i}`,
				});
			}
			// A39: the variant lists a client's message only a moment after it was written.
			const listed = async () => {
				const texts: string[] = [];
				for await (const m of client.iterateClientMessages('cl_grace', { pageSize: 2 }))
					texts.push(m.text as string);
				return texts;
			};
			if (profile === 'variant') {
				expect(await listed()).toEqual([]);
				await admin(emulator(), 'POST', '/clock/advance', { ms: 2000 });
			}
			expect(await listed()).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
			expect(client.requestCount).toBe(profile === 'variant' ? 4 : 3);
			await client.close();
		});
	},
);
