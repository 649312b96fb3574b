/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling: timers, never loaded by n8n */
import { closeBudgets } from '../../../runtime/api/budget';
import { FencedError } from '../../../runtime/api/guard';
import { clientFor } from '../../helpers/client';
import { admin, useEmulator } from '../../helpers/emulator';

type Logged = { method: string; path: string; status: number };
const requests = async (e: Parameters<typeof admin>[0]) =>
	(await admin<Logged[]>(e, 'GET', '/requests')).body.data;

const SEND = { client_id: 'cl_ada', text: 'Your order has shipped' };

// A request's guard (api/guard.ts): asked right before the request leaves, after every wait; its
// signal ends the waits and cuts the request off. What a worker that lost its lease relies on.
describe('runtime client: a guarded request', () => {
	const emulator = useEmulator();
	beforeEach(async () => {
		await admin(emulator(), 'POST', '/reset');
		// Each test on a budget of its own: a 429's block stays with the budget.
		await closeBudgets();
	});

	it('never leaves when its check refuses', async () => {
		const client = clientFor(emulator());
		const check = async () => {
			throw new FencedError('lease lost');
		};
		await expect(client.sendMessage('bot_shop', SEND, { check })).rejects.toThrow(FencedError);
		await client.close();
		expect(client.requestCount).toBe(0);
		expect(await requests(emulator())).toEqual([]);
	});

	it("stops waiting out a 429's Retry-After as soon as its signal fires: no second attempt", async () => {
		await admin(emulator(), 'POST', '/config', { rate_limit: 1, rate_window_ms: 60_000 });
		// This client believes in a far higher limit: only the service's 429 holds it back.
		const client = clientFor(emulator(), { rateLimit: { limit: 10_000, windowMs: 60_000 } });
		await client.sendMessage('bot_shop', SEND);
		const lost = new AbortController();
		const started = Date.now();
		const sending = client.sendMessage('bot_shop', SEND, { signal: lost.signal });
		setTimeout(() => lost.abort(new FencedError('lease lost')), 300);
		await expect(sending).rejects.toThrow('lease lost');
		expect(Date.now() - started).toBeLessThan(5_000);
		await client.close();
		expect((await requests(emulator())).map((r) => r.status)).toEqual([200, 429]);
	});

	it('cuts a request in flight off when its signal fires', async () => {
		// Never answered: only the signal ends it (the socket closes with the emulator).
		await admin(emulator(), 'POST', '/faults', {
			path: '/v1/bots/bot_shop/messages',
			kind: 'hang',
		});
		const client = clientFor(emulator(), { maxRetries: 0 });
		const lost = new AbortController();
		const started = Date.now();
		const sending = client.sendMessage('bot_shop', SEND, { signal: lost.signal });
		setTimeout(() => lost.abort(new FencedError('lease lost')), 300);
		await expect(sending).rejects.toThrow(FencedError);
		expect(Date.now() - started).toBeLessThan(5_000);
		// It had left: cut off in flight, not in the budget's queue.
		expect(client.requestCount).toBe(1);
		await client.close();
	});
});
