import {
	MAX_RETRY_AFTER_MS,
	RateLimitedError,
	RetryAfterTooLongError,
	SendOutcomeUnknownError,
} from '../../runtime/api';
import { json, scriptedClient, START, type Reply } from '../helpers/scripted';

const bots = json(200, { success: true, data: [{ id: 'bot_a', name: 'A', status: 'active' }] });
const refused = (retryAfter: string): Reply =>
	json(
		429,
		{ success: false, error: { message: 'Rate limit exceeded' } },
		{ 'retry-after': retryAfter },
	);
/** The first request is refused with this Retry-After, every later one accepted. */
const refusedOnce = (retryAfter: string) => (_: unknown, i: number) =>
	i === 0 ? refused(retryAfter) : bots;

// A 429 is waited out as long as Retry-After says, up to MAX_RETRY_AFTER_MS; beyond it the
// request fails at once instead of holding the execution (docs/service-assumptions.md#a3, #a5).
describe('Retry-After cap', () => {
	it('is five minutes, exported', () => {
		expect(MAX_RETRY_AFTER_MS).toBe(300_000);
	});

	it('fails at once when Retry-After in seconds asks for more than the cap', async () => {
		const { client, requests, clock } = scriptedClient(refusedOnce('600'));
		const error = await client.listBots().catch((e: unknown) => e);
		expect(error).toBeInstanceOf(RetryAfterTooLongError);
		expect(error).toBeInstanceOf(RateLimitedError);
		expect(error).toMatchObject({ status: 429, waitMs: 600_000, attempts: 1 });
		expect((error as Error).message).toBe(
			'Rate limit exceeded: the service asked to wait 10 min before the next request, longer than the 5 min this client waits at most. The request was not sent again and the service did not carry it out.',
		);
		expect(requests).toHaveLength(1);
		expect(clock.sleeps).toEqual([]);
	});

	it('fails at once when Retry-After as an HTTP date is further away than the cap', async () => {
		const inQuarterHour = new Date(START + 15 * 60_000).toUTCString();
		const { client, requests, clock } = scriptedClient(refusedOnce(inQuarterHour));
		const error = await client.listBots().catch((e: unknown) => e);
		expect(error).toBeInstanceOf(RetryAfterTooLongError);
		expect(error).toMatchObject({ waitMs: 15 * 60_000 });
		expect((error as Error).message).toMatch(
			/asked to wait 15 min before the next request, longer than the 5 min this client waits at most\. The request was not sent again/,
		);
		expect(requests).toHaveLength(1);
		expect(clock.sleeps).toEqual([]);
	});

	it('waits out exactly the cap, then succeeds', async () => {
		const { client, requests, clock } = scriptedClient(refusedOnce('300'));
		await expect(client.listBots()).resolves.toHaveLength(1);
		expect(requests).toHaveLength(2);
		expect(clock.sleeps).toContain(300_000);
	});

	it('waits out an HTTP date within the cap, then succeeds', async () => {
		const { client, requests, clock } = scriptedClient(
			refusedOnce(new Date(START + 90_000).toUTCString()),
		);
		await expect(client.listBots()).resolves.toHaveLength(1);
		expect(requests).toHaveLength(2);
		expect(Math.max(...clock.sleeps)).toBe(90_000);
	});

	it('fails a send at once too: certainly not sent, so not "outcome unknown"', async () => {
		const { client, requests } = scriptedClient(refusedOnce('3600'));
		const error = await client
			.sendMessage('bot_a', { client_id: 'cl_a', text: 'hi' })
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(RetryAfterTooLongError);
		expect(error).not.toBeInstanceOf(SendOutcomeUnknownError);
		expect((error as Error).message).toMatch(/asked to wait 60 min before the next request/);
		expect(requests).toHaveLength(1);
	});
});
