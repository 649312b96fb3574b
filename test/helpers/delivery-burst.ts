/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test and benchmark tooling: an HTTP sink and a load generator, never loaded by n8n */
import { createServer, type Server } from 'node:http';
import { Agent, request } from 'undici';

import { freePort } from '../../scripts/lib/n8n-process';

import { signedDelivery } from './deliveries';

export const BURST_SECRET = ['whsec', 'bench'].join('_');

/** "Do the work": an HTTP Request node posting each item's delivery id to the sink. */
export function workNode(id: string, sinkUrl: string) {
	return {
		id,
		name: 'Do the work',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: [260, 0],
		parameters: {
			method: 'POST',
			url: sinkUrl,
			sendBody: true,
			specifyBody: 'json',
			// The Webhook node's item has the delivery id in its body; the triggers' at the top.
			jsonBody: '={{ JSON.stringify({ id: $json.delivery_id ?? $json.body.data.delivery_id }) }}',
			options: {},
		},
	};
}

/** Receives the work: the time each delivery id was done, and how often. */
export class Sink {
	readonly done = new Map<string, number[]>();
	private server: Server = createServer((req, res) => {
		let body = '';
		req.on('data', (c: Buffer) => (body += c.toString()));
		req.on('end', () => {
			try {
				const { id } = JSON.parse(body) as { id: string };
				this.done.set(id, [...(this.done.get(id) ?? []), performance.now()]);
			} catch {
				// Not ours.
			}
			res.writeHead(200, { 'Content-Type': 'application/json' });
			res.end('{}');
		});
	});
	async start(): Promise<string> {
		const port = await freePort();
		await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
		return `http://127.0.0.1:${port}/work`;
	}
	async close(): Promise<void> {
		await new Promise((resolve) => this.server.close(resolve));
	}
}

export type Burst = {
	acked: string[];
	latencies: number[];
	failures: number;
	workMs: number;
	twice: number;
	missing: number;
};

/**
 * Sends `total` distinct signed order.created deliveries, `concurrent` at a time, each carrying
 * its delivery id in its data, and waits until the sink saw every acknowledged one worked on.
 */
export async function burst(
	url: string,
	concurrent: number,
	total: number,
	sink: Sink,
	dispatcher: Agent,
	tag: string,
	/** Runs once every delivery is answered (a kill, say), before waiting for the work. */
	afterAnswers?: () => Promise<void>,
	workTimeoutMs = 60_000,
): Promise<Burst> {
	const latencies: number[] = [];
	const ids: string[] = [];
	const acked: string[] = [];
	let failures = 0;
	let next = 0;
	const started = performance.now();
	await Promise.all(
		Array.from({ length: concurrent }, async () => {
			while (next < total) {
				const i = next++;
				const id = `dlv_${tag}_${i}`;
				ids.push(id);
				const { body, headers } = signedDelivery(
					BURST_SECRET,
					'order.created',
					{ client_id: 'cl_ada', order_id: `ord_${i}`, delivery_id: id },
					id,
					'wh_bench',
				);
				const t = performance.now();
				const res = await request(url, {
					method: 'POST',
					headers,
					body,
					dispatcher,
					headersTimeout: 60_000,
				});
				await res.body.dump();
				latencies.push(performance.now() - t);
				if (res.statusCode !== 200) failures++;
				else acked.push(id);
			}
		}),
	);
	await afterAnswers?.();
	// Every acknowledged delivery's work done (or the time is up).
	const deadline = performance.now() + workTimeoutMs;
	while (acked.some((id) => !sink.done.has(id)) && performance.now() < deadline)
		await new Promise((r) => setTimeout(r, 50));
	const times = ids.flatMap((id) => sink.done.get(id) ?? []);
	return {
		latencies: latencies.sort((a, b) => a - b),
		failures,
		workMs: Math.max(...times) - started,
		twice: ids.filter((id) => (sink.done.get(id)?.length ?? 0) > 1).length,
		missing: ids.filter((id) => !sink.done.has(id)).length,
		acked,
	};
}
