/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- end-to-end tooling: hostile clients on raw sockets, never loaded by n8n */
import { connect, type Socket } from 'node:net';
import { Agent, request } from 'undici';

import { referenceSignature } from '../../helpers/deliveries';

/** What a door answered an attack's requests with, and how long the answers took. */
export type Answers = {
	statuses: Record<string, number>;
	p50: number;
	max: number;
	perSecond: number;
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function order(id: string): string {
	return JSON.stringify({
		event: 'order.created',
		data: { client_id: 'cl_x', order_id: 'ord_x', delivery_id: id },
		webhook_id: 'wh_attack',
		timestamp: new Date().toISOString(),
	});
}

/** `total` requests from `senders` at once, each built by `make(i)`; every answer counted. */
export async function flood(
	url: string,
	total: number,
	senders: number,
	make: (i: number) => { headers: Record<string, string>; body: string | Buffer },
): Promise<Answers> {
	const agent = new Agent({ connections: senders });
	const statuses: Record<string, number> = {};
	const times: number[] = [];
	let next = 0;
	const started = performance.now();
	await Promise.all(
		Array.from({ length: senders }, async () => {
			while (next < total) {
				const { headers, body } = make(next++);
				const t = performance.now();
				const status = await request(url, {
					method: 'POST',
					headers,
					body,
					dispatcher: agent,
					headersTimeout: 60_000,
				}).then(
					async (res) => {
						await res.body.dump();
						return String(res.statusCode);
					},
					(error: Error) => error.name,
				);
				times.push(performance.now() - t);
				statuses[status] = (statuses[status] ?? 0) + 1;
			}
		}),
	);
	await agent.close();
	times.sort((a, b) => a - b);
	return {
		statuses,
		p50: times[Math.floor(times.length / 2)] ?? 0,
		max: times[times.length - 1] ?? 0,
		perSecond: total / ((performance.now() - started) / 1000),
	};
}

const json = { 'content-type': 'application/json' };

/** Deliveries signed with a secret that is not the subscription's. */
export const badSignature = (tag: string) => (i: number) => {
	const body = order(`bad_${tag}_${i}`);
	return {
		headers: {
			...json,
			'x-service-signature': referenceSignature('whsec_wrong', body),
			'x-service-delivery-id': `bad_${tag}_${i}`,
			'x-service-event': 'order.created',
		},
		body,
	};
};

/** n8n's Webhook node with Header Auth, refused the same way: a wrong header value. */
export const badHeaderAuth = (i: number) => ({
	headers: { ...json, 'x-auth': `wrong-${i}` },
	body: order(`hdr_${i}`),
});

/** A validly signed body of another shape: not JSON, not an object, or missing headers. */
export const signedOdd =
	(secret: string, kind: 'malformed' | 'array' | 'string' | 'no id') => (i: number) => {
		const body =
			kind === 'malformed'
				? '{"event":"order.created","data":{'
				: kind === 'array'
					? '[1,2,3]'
					: kind === 'string'
						? '"hello"'
						: order(`noid_${i}`);
		return {
			headers: {
				...json,
				'x-service-signature': referenceSignature(secret, body),
				...(kind === 'no id' ? {} : { 'x-service-delivery-id': `odd_${kind}_${i}` }),
			},
			body,
		};
	};

/** A signed order whose data holds `depth` levels of nested arrays. */
export function deepSigned(secret: string, depth: number, id: string) {
	const body = `{"event":"order.created","data":{"order_id":"o","deep":${'['.repeat(depth)}${']'.repeat(depth)}},"webhook_id":"w","timestamp":"${new Date().toISOString()}"}`;
	return {
		headers: {
			...json,
			'x-service-signature': referenceSignature(secret, body),
			'x-service-delivery-id': id,
		},
		body,
	};
}

function openSocket(port: number): Promise<Socket> {
	return new Promise((resolve, reject) => {
		const socket = connect(port, '127.0.0.1', () => resolve(socket));
		socket.once('error', reject);
	});
}

/**
 * Declares a body of 1 GiB and sends it as fast as the door reads it: the status the door
 * answered (or how the connection ended), and how many bytes went before it.
 */
export async function hugeBody(
	port: number,
	path: string,
): Promise<{ answer: string; sentMb: number }> {
	const socket = await openSocket(port);
	let answer = '';
	let sent = 0;
	socket.on('data', (d: Buffer) => (answer ||= d.toString().split('\r\n')[0]));
	socket.on('error', () => undefined);
	socket.write(
		`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${2 ** 30}\r\n\r\n`,
	);
	const chunk = Buffer.alloc(1 << 20, 0x20);
	while (!answer && !socket.destroyed && sent < 2 ** 30) {
		if (!socket.write(chunk)) await new Promise((r) => socket.once('drain', r).once('close', r));
		sent += chunk.length;
	}
	await sleep(200);
	socket.destroy();
	return { answer: answer || 'closed without an answer', sentMb: Math.round(sent / 2 ** 20) };
}

/** `count` connections that send a request head a few bytes a second and never finish it. */
export async function slowloris(port: number, count: number, holdMs: number): Promise<number> {
	const sockets = await openMany(port, count);
	const started = performance.now();
	for (const s of sockets) s.write('POST /x HTTP/1.1\r\nHost: 127.0.0.1\r\n');
	while (performance.now() - started < holdMs) {
		for (const s of sockets)
			if (!s.destroyed) s.write(`X-${Math.random().toString(36).slice(2, 4)}: a\r\n`);
		await sleep(1000);
	}
	const closedByDoor = sockets.filter((s) => s.destroyed).length;
	sockets.forEach((s) => s.destroy());
	return closedByDoor;
}

/** `count` connections that send nothing, held for `holdMs`: how many the door closed meanwhile. */
export async function idle(port: number, count: number, holdMs: number): Promise<number> {
	const sockets = await openMany(port, count);
	await sleep(holdMs);
	const closedByDoor = sockets.filter((s) => s.destroyed).length;
	sockets.forEach((s) => s.destroy());
	return closedByDoor;
}

/** Chunked bodies that start and never end: how many the door closed within `holdMs`. */
export async function endlessChunked(
	port: number,
	path: string,
	count: number,
	holdMs: number,
): Promise<number> {
	const sockets = await openMany(port, count);
	for (const s of sockets)
		s.write(
			`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{"\r\n`,
		);
	await sleep(holdMs);
	const closedByDoor = sockets.filter((s) => s.destroyed).length;
	sockets.forEach((s) => s.destroy());
	return closedByDoor;
}

async function openMany(port: number, count: number): Promise<Socket[]> {
	const sockets: Socket[] = [];
	for (let i = 0; i < count; i++) {
		const s = await openSocket(port).catch(() => undefined);
		if (!s) continue;
		s.on('error', () => undefined);
		s.on('close', () => s.destroy());
		sockets.push(s);
	}
	return sockets;
}

/** An attack's figures as a line ends them: what it was answered, or what the door did. */
export function summary(result: unknown): string {
	if (typeof result === 'number')
		return `; the door closed ${result} of the attacker's connections`;
	if (result && typeof result === 'object' && 'statuses' in result) {
		const a = result as Answers;
		return `; attack answered ${JSON.stringify(a.statuses)} at ${Math.round(a.perSecond)}/s, p50 ${Math.round(a.p50)} ms, max ${Math.round(a.max)} ms`;
	}
	if (result && typeof result === 'object' && 'answer' in result) {
		const h = result as { answer: string; sentMb: number };
		return `; answered "${h.answer}" after ${h.sentMb} MiB sent`;
	}
	return '';
}
