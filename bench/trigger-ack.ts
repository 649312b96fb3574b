/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling: runs a real n8n, never loaded by n8n */
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';

import { prepareN8n, WEBHOOK_CREDENTIAL_ID, type Workflow } from '../scripts/lib/demo-setup';
import { freePort, startN8n, waitForWebhook } from '../scripts/lib/n8n-process';
import { fmt, percentile, table } from './lib';

/**
 * Bursts of distinct signed deliveries, N at a time, into one real n8n under its default
 * settings: the Messaging Bot Trigger on its own port, and on n8n's webhook URL (default: Batch
 * Deliveries), against n8n's own Webhook node
 * answering on receipt. Each workflow does the same work per delivery: an HTTP Request node posts
 * the delivery id to a sink in this script, which tells when every delivery's work is done, and
 * whether any was done twice.
 */
const LEVELS = (process.env.BENCH_LEVELS ?? '20,50,100,200').split(',').map(Number);
const DELIVERIES: Record<number, number> = { 20: 100, 50: 200, 100: 300, 200: 400 };
const SECRET = ['whsec', 'bench'].join('_');

function workflows(sinkUrl: string, ownPort: number): Workflow[] {
	const work = (id: string) => ({
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
			jsonBody: '={{ JSON.stringify({ id: $json.delivery_id ?? $json.body.data.delivery_id }) }}',
			options: {},
		},
	});
	const connections = { main: [[{ node: 'Do the work', type: 'main', index: 0 }]] };
	return [
		{
			id: 'benchTrigger0001',
			name: 'Bench: Messaging Bot Trigger',
			nodes: [
				{
					id: 'a1',
					name: 'Trigger',
					type: 'n8n-nodes-messaging-bot.messagingBotTrigger',
					typeVersion: 1,
					position: [0, 0],
					webhookId: 'bench-trigger',
					parameters: { events: ['*'], options: {} },
					credentials: {
						messagingBotWebhookApi: { id: WEBHOOK_CREDENTIAL_ID, name: 'Messaging Bot Webhook' },
					},
				},
				work('a2'),
			],
			connections: { Trigger: connections },
			settings: {},
			active: false,
		},
		{
			id: 'benchPortTrig001',
			name: 'Bench: Messaging Bot Trigger (Own Port)',
			nodes: [
				{
					id: 'c1',
					name: 'Trigger',
					type: 'n8n-nodes-messaging-bot.messagingBotPortTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: { port: ownPort, host: '127.0.0.1', events: ['*'], options: {} },
					credentials: {
						messagingBotWebhookApi: { id: WEBHOOK_CREDENTIAL_ID, name: 'Messaging Bot Webhook' },
					},
				},
				work('c2'),
			],
			connections: { Trigger: connections },
			settings: {},
			active: false,
		},
		{
			id: 'benchWebhook0001',
			name: 'Bench: n8n Webhook',
			nodes: [
				{
					id: 'b1',
					name: 'Webhook',
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					position: [0, 0],
					webhookId: 'bench-plain',
					parameters: {
						httpMethod: 'POST',
						path: 'bench-plain',
						responseMode: 'onReceived',
						options: {},
					},
				},
				work('b2'),
			],
			connections: { Webhook: connections },
			settings: {},
			active: false,
		},
	] as unknown as Workflow[];
}

/** Receives the work: the time each delivery id was done, and how often. */
class Sink {
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

type Burst = {
	latencies: number[];
	failures: number;
	workMs: number;
	twice: number;
	missing: number;
};

async function burst(
	url: string,
	concurrent: number,
	total: number,
	sink: Sink,
	dispatcher: Agent,
	tag: string,
): Promise<Burst> {
	const latencies: number[] = [];
	const ids: string[] = [];
	let failures = 0;
	let next = 0;
	const started = performance.now();
	await Promise.all(
		Array.from({ length: concurrent }, async () => {
			while (next < total) {
				const i = next++;
				const id = `dlv_${tag}_${i}`;
				ids.push(id);
				const body = JSON.stringify({
					event: 'order.created',
					data: { client_id: 'cl_ada', order_id: `ord_${i}`, delivery_id: id },
					webhook_id: 'wh_bench',
					timestamp: new Date().toISOString(),
				});
				const t = performance.now();
				const res = await request(url, {
					method: 'POST',
					headers: {
						'Content-Type': 'application/json',
						'X-Service-Event': 'order.created',
						'X-Service-Delivery-ID': id,
						'X-Service-Signature': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`,
					},
					body,
					dispatcher,
					headersTimeout: 60_000,
				});
				await res.body.dump();
				latencies.push(performance.now() - t);
				if (res.statusCode !== 200) failures++;
			}
		}),
	);
	// Every delivery's work done (or 60 s passed).
	const deadline = performance.now() + 60_000;
	while (ids.some((id) => !sink.done.has(id)) && performance.now() < deadline)
		await new Promise((r) => setTimeout(r, 50));
	const times = ids.flatMap((id) => sink.done.get(id) ?? []);
	return {
		latencies: latencies.sort((a, b) => a - b),
		failures,
		workMs: Math.max(...times) - started,
		twice: ids.filter((id) => (sink.done.get(id)?.length ?? 0) > 1).length,
		missing: ids.filter((id) => !sink.done.has(id)).length,
	};
}

async function main(): Promise<void> {
	const userFolder = mkdtempSync(path.join(tmpdir(), 'mb-bench-'));
	const sink = new Sink();
	const sinkUrl = await sink.start();
	const options = { userFolder, port: await freePort(), brokerPort: await freePort() };
	const ownPort = await freePort();
	prepareN8n(
		options,
		{ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'unused' },
		SECRET,
		workflows(sinkUrl, ownPort),
	);
	const n8n = await startN8n(options);
	const urls = {
		'Trigger (Own Port)': `http://127.0.0.1:${ownPort}/messaging-bot`,
		'Messaging Bot Trigger': `${n8n.url}/webhook/bench-trigger/messaging-bot`,
		'n8n Webhook node': `${n8n.url}/webhook/bench-plain`,
	};
	const dispatcher = new Agent({ connections: 400 });
	const rows: Array<Record<string, string | number>> = [];
	try {
		for (const url of Object.values(urls)) await waitForWebhook(url);
		// Warm both up once.
		for (const url of Object.values(urls))
			await burst(url, 10, 20, sink, dispatcher, `warm${url.length}`);
		for (const concurrent of LEVELS) {
			const total = DELIVERIES[concurrent] ?? concurrent * 2;
			for (const [name, url] of Object.entries(urls)) {
				const r = await burst(
					url,
					concurrent,
					total,
					sink,
					dispatcher,
					`${concurrent}_${name.length}`,
				);
				rows.push({
					concurrent,
					endpoint: name,
					deliveries: total,
					'non-200': r.failures,
					p50: fmt(percentile(r.latencies, 50)),
					p99: fmt(percentile(r.latencies, 99)),
					max: fmt(r.latencies[r.latencies.length - 1]),
					'acks >= 5 s': r.latencies.filter((l) => l >= 5000).length,
					'all work done': fmt(r.workMs),
					'done twice': r.twice,
					'not done': r.missing,
				});
				process.stderr.write(`${JSON.stringify(rows[rows.length - 1])}\n`);
				await new Promise((resolve) => setTimeout(resolve, 3000)); // let n8n settle
			}
		}
		process.stdout.write(
			`Acknowledgement in one real n8n (regular mode, default settings), distinct signed deliveries N at a time\n${table(rows)}\n`,
		);
	} finally {
		await dispatcher.close();
		await n8n.stop();
		await sink.close();
		rmSync(userFolder, { recursive: true, force: true });
	}
}

void main();
