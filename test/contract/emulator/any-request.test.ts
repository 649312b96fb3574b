import fc from 'fast-check';

import type { RunningEmulator } from '../../emulator';
import { send, expectServing, suite } from './raw-http';
import { requestArb, bodyRequestArb, type GeneratedRequest } from './request-arbitraries';

// docs/service-assumptions.md#a2 (error body on every 4xx), #a26, #a27 — for any request at all.
describe('emulator: property — any request gets a JSON answer below 500', () => {
	const emulator = suite();

	/** The property: below 500, JSON (except HEAD), `success` false exactly on 4xx with code and message. */
	async function check(e: RunningEmulator, r: GeneratedRequest): Promise<void> {
		const withBody = r.method !== 'GET' && r.method !== 'HEAD' && r.body !== undefined;
		const answer = await send(e, r.method, r.path + r.query, {
			body: withBody ? r.body : undefined,
			contentType: r.contentType,
			auth: r.auth,
		});
		expect(answer.status).toBeLessThan(500);
		if (answer.status === 405) expect(answer.headers.get('allow')).toEqual(expect.any(String));
		if (r.method === 'HEAD') return;
		expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
		const parsed = JSON.parse(answer.text) as {
			success: boolean;
			error?: { code: unknown; message: unknown };
		};
		expect(parsed.success).toBe(answer.status < 400);
		if (answer.status >= 400) {
			expect(typeof parsed.error?.code).toBe('string');
			expect(typeof parsed.error?.message).toBe('string');
		}
	}

	it('answers every generated request with < 500 and a JSON error body on 4xx', async () => {
		const e = emulator();
		await fc.assert(
			fc.asyncProperty(requestArb, (r) => check(e, r)),
			{ numRuns: 300 },
		);
		await expectServing(e);
	});

	it('validates every mutated body of every route that takes one without failing', async () => {
		const e = emulator();
		await fc.assert(
			fc.asyncProperty(bodyRequestArb, (r) => check(e, r)),
			{ numRuns: 400 },
		);
		await expectServing(e);
	});
});
