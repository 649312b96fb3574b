/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: raw TCP requests, never loaded by n8n */
import fc from 'fast-check';
import { connect } from 'node:net';

import type { RunningEmulator } from '../../emulator';
import { expectServing, suite, type ErrorBody } from './raw-http';

// ---- property-based: garbage over raw TCP ----

/** Writes raw bytes to the emulator's port and reads until the server closes (or 2 s pass). */
function exchange(e: RunningEmulator, data: Uint8Array): Promise<string> {
	const { hostname, port } = new URL(e.baseUrl);
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		const socket = connect({ host: hostname, port: Number(port) }, () => socket.end(data));
		socket.setTimeout(2_000, () => {
			socket.destroy();
			reject(
				new Error(
					`no answer within 2 s to ${JSON.stringify(Buffer.from(data).toString('latin1'))}`,
				),
			);
		});
		socket.on('data', (c: Buffer) => chunks.push(c));
		socket.on('error', reject);
		socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
	});
}

const noNewline = (bytes: Uint8Array) => bytes.map((b) => (b === 0x0a || b === 0x0d ? 0x20 : b));

/** Request lines that cannot be a valid HTTP/1.x request line. */
const garbageLine = fc
	.oneof(
		fc.uint8Array({ minLength: 1, maxLength: 80 }).map(noNewline),
		fc
			.tuple(
				fc.constantFrom(
					'get',
					'G E T',
					'GET',
					'POST',
					'BREW',
					'GET\t/',
					'\u00ff\u00fe',
					'{"json":1}',
					'PUT /v1/bots',
				),
				fc.string({ maxLength: 20 }).map((s) => s.replace(/[\r\n]/g, ' ')),
				fc.constantFrom(
					'HTTP/9.9',
					'HTTP/1.1x',
					'HTTPS/1.1',
					'http/1.1',
					'HTTP/',
					'',
					'HTTP/1.1 extra',
				),
			)
			.map(([method, target, version]) =>
				new TextEncoder().encode(`${method} /${target} ${version}`),
			),
	)
	.filter((bytes) => !/^[A-Z]+ \S+ HTTP\/1\.[01]$/.test(Buffer.from(bytes).toString('latin1')));

// docs/service-assumptions.md#a2 — even a request Node cannot parse gets the JSON error body.
describe('emulator: property — garbage request lines over TCP', () => {
	const emulator = suite();

	it('answers each with 400 and a JSON body, and keeps serving', async () => {
		const e = emulator();
		await fc.assert(
			fc.asyncProperty(garbageLine, async (line) => {
				const data = Buffer.concat([Buffer.from(line), Buffer.from('\r\n\r\n')]);
				const answer = await exchange(e, data);
				expect(answer).toMatch(/^HTTP\/1\.1 400 /);
				const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as ErrorBody;
				expect(body).toMatchObject({
					success: false,
					error: { code: 'bad_request', message: expect.any(String) },
				});
			}),
			{ numRuns: 100 },
		);
		await expectServing(e);
	});

	it('answers headers over the size limit with 431 and a JSON body', async () => {
		const e = emulator();
		const answer = await exchange(
			e,
			Buffer.from(`GET /v1/bots HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
		);
		expect(answer).toMatch(/^HTTP\/1\.1 431 /);
		expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({
			success: false,
			error: { code: 'headers_too_large' },
		});
		await expectServing(e);
	});
});
