/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling: raw sockets and real timers, never loaded by n8n */
import { connect, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { request } from 'undici';

import { MemoryStore } from '../../runtime/stores';
import type { StateStore } from '../../runtime/stores/types';
import { receiveDelivery, startListener, type ListenerLimits } from '../../runtime/webhooks';
import { signedDelivery } from '../helpers/deliveries';

const SECRET = ['whsec', 'door'].join('_');
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The own port's listener and intake, as the node wires them, over `store`. */
async function door(store: StateStore, limits: Partial<ListenerLimits> = {}, batch = true) {
	const logged: string[] = [];
	const listener = await startListener({
		port: 0,
		host: '127.0.0.1',
		path: '/hook',
		log: (m) => logged.push(m),
		limits,
		receive: async (delivery) =>
			await receiveDelivery(delivery, {
				secrets: [SECRET],
				events: ['*'],
				listening: false,
				passTestEvents: false,
				scope: 'wf',
				recordMessages: true,
				batch,
				store: async () => store,
			}),
	});
	return { listener, logged };
}

async function post(url: string, i: number, body?: string | Buffer) {
	const signed = signedDelivery(SECRET, 'order.created', { order_id: `o${i}` }, `d${i}`, 'w');
	const res = await request(url, {
		method: 'POST',
		headers: signed.headers,
		body: body ?? signed.body,
	});
	return { status: res.statusCode, body: (await res.body.json()) as { message?: string } };
}

/** A store whose `method` fails, as a full disk or a lost connection would. */
function failing(method: 'enqueue' | 'take' | 'claim'): StateStore {
	const store = new MemoryStore();
	return new Proxy(store, {
		get(target, key, receiver) {
			if (key === method)
				return async () => await Promise.reject(new Error(`${method} failed: disk full`));
			const value = Reflect.get(target, key, receiver) as unknown;
			return typeof value === 'function'
				? (value as (...a: unknown[]) => unknown).bind(target)
				: value;
		},
	});
}

function rawSocket(port: number): Promise<Socket> {
	return new Promise((resolve, reject) => {
		const socket = connect(port, '127.0.0.1', () => resolve(socket));
		socket.once('error', reject);
	});
}

function closed(socket: Socket): Promise<number> {
	const started = performance.now();
	if (socket.destroyed) return Promise.resolve(0);
	return new Promise((resolve) => socket.once('close', () => resolve(performance.now() - started)));
}

describe('the own port under hostile input', () => {
	const unhandled: unknown[] = [];
	const onUnhandled = (reason: unknown) => unhandled.push(reason);
	beforeAll(() => process.on('unhandledRejection', onUnhandled));
	afterAll(() => process.off('unhandledRejection', onUnhandled));
	afterEach(() => expect(unhandled).toEqual([]));

	it.each([
		['the inbox write (store)', 'enqueue', false],
		['the dispatch queue (store)', 'enqueue', true],
		['the batch take (dispatch)', 'take', true],
	] as const)('answers 503 and logs once when %s fails', async (_stage, method, batch) => {
		const { listener, logged } = await door(failing(method), {}, batch);
		try {
			const signed = signedDelivery(
				SECRET,
				'message.received',
				{ message_id: 'm1', client_id: 'c1', bot_id: 'b1', text: 'hi' },
				'd1',
				'w',
			);
			const res = await request(listener.url, {
				method: 'POST',
				headers: signed.headers,
				body: signed.body,
			});
			const text = await res.body.text();
			if (method === 'take') {
				// Recorded before the take: the delivery is kept, so it is acknowledged.
				expect(res.statusCode).toBe(200);
				return;
			}
			expect(res.statusCode).toBe(503);
			expect(text).not.toMatch(/disk full/);
			expect(logged).toEqual([expect.stringMatching(/answered 503: enqueue failed: disk full/)]);
		} finally {
			await listener.close();
		}
	});

	it('answers a failing parse and a failing signature with a 4xx naming why', async () => {
		const { listener } = await door(new MemoryStore());
		try {
			expect(await post(listener.url, 1, '{"event":')).toMatchObject({ status: 401 });
			const bad = await request(listener.url, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'x-service-signature': 'sha256=abc' },
				body: '{}',
			});
			expect(bad.statusCode).toBe(401);
			expect(await bad.body.json()).toEqual({
				success: false,
				message: 'Rejected: the request has a malformed X-Service-Signature',
			});
		} finally {
			await listener.close();
		}
	});

	it('answers 413 from Content-Length before reading, and while streaming a chunked body', async () => {
		const { listener } = await door(new MemoryStore(), { maxBytes: 64 * 1024 });
		try {
			// A client that declares 1 GiB and starts sending: answered before the body is read.
			const socket = await rawSocket(Number(new URL(listener.url).port));
			socket.on('error', () => undefined);
			const answered = new Promise<string>((resolve) =>
				socket.once('data', (chunk: Buffer) => resolve(chunk.toString())),
			);
			socket.write(
				`POST /hook HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${1 << 30}\r\n\r\n`,
			);
			socket.write(Buffer.alloc(128 * 1024, 0x20));
			expect(await answered).toMatch(/^HTTP\/1\.1 413 /);
			await closed(socket);
			async function* endless() {
				for (;;) {
					yield Buffer.alloc(16 * 1024, 0x20);
					await sleep(1);
				}
			}
			const streamed = await request(listener.url, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: Readable.from(endless()),
			}).catch((e: Error) => e);
			expect(streamed).toMatchObject({ statusCode: 413 });
			// The door still answers.
			expect((await post(listener.url, 2)).status).toBe(200);
		} finally {
			await listener.close();
		}
	});

	// A client busy sending (a loaded machine, a slow reader) reads the answer late: the door keeps
	// reading and dropping the body for a while, so the connection is not reset under the answer.
	it('keeps the 413 readable for a client that reads it only after sending on for a while', async () => {
		const { listener } = await door(new MemoryStore(), { maxBytes: 64 * 1024 });
		try {
			const socket = await rawSocket(Number(new URL(listener.url).port));
			const errors: string[] = [];
			socket.on('error', (e: NodeJS.ErrnoException) => errors.push(e.code ?? e.message));
			socket.pause();
			socket.write(
				`POST /hook HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${1 << 30}\r\n\r\n`,
			);
			// For a second (half the door's linger), whatever the machine's load: far past a byte cap.
			const chunk = Buffer.alloc(256 * 1024, 0x20);
			const until = Date.now() + 1000;
			while (Date.now() < until && !socket.destroyed) {
				for (let k = 0; k < 4; k++) socket.write(chunk);
				await sleep(5);
			}
			const unanswered = () => `closed without an answer (${errors.join(', ')})`;
			const answered = new Promise<string>((resolve) => {
				socket.once('data', (data: Buffer) => resolve(data.toString()));
				socket.once('close', () => resolve(unanswered()));
				if (socket.destroyed) resolve(unanswered());
			});
			socket.resume();
			expect(await answered).toMatch(/^HTTP\/1\.1 413 /);
			socket.destroy();
		} finally {
			await listener.close();
		}
	});

	it('closes a connection that sends no headers, or a body that stops, after its timeout', async () => {
		const { listener } = await door(new MemoryStore(), {
			headersTimeoutMs: 1500,
			requestTimeoutMs: 2500,
		});
		const port = Number(new URL(listener.url).port);
		try {
			const silent = await rawSocket(port);
			const stalled = await rawSocket(port);
			stalled.write(
				'POST /hook HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"a":\r\n',
			);
			const [silentMs, stalledMs] = await Promise.all([closed(silent), closed(stalled)]);
			expect(silentMs).toBeLessThan(4000);
			expect(stalledMs).toBeLessThan(5000);
		} finally {
			await listener.close();
		}
	});

	it('keeps answering deliveries while 1,000 idle connections are held open', async () => {
		const { listener } = await door(new MemoryStore(), {
			maxConnections: 300,
			maxConnectionsPerAddress: 300,
		});
		const port = Number(new URL(listener.url).port);
		const idle: Socket[] = [];
		try {
			for (let i = 0; i < 1000; i++) {
				const s = await rawSocket(port).catch(() => undefined);
				if (s) {
					s.on('error', () => undefined);
					idle.push(s);
				}
			}
			const times: number[] = [];
			for (let i = 0; i < 50; i++) {
				const started = performance.now();
				expect((await post(listener.url, 100 + i)).status).toBe(200);
				times.push(performance.now() - started);
			}
			expect(Math.max(...times)).toBeLessThan(1000);
			// At most the limit is open: the rest were closed, longest idle first.
			await sleep(100);
			expect(
				idle.filter((s) => !s.destroyed && s.readyState === 'open').length,
			).toBeLessThanOrEqual(300);
		} finally {
			idle.forEach((s) => s.destroy());
			await listener.close();
		}
	});
});
