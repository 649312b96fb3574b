/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling: runs a real n8n, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent } from 'undici';

import { prepareN8n, WEBHOOK_CREDENTIAL_ID, type Workflow } from '../scripts/lib/demo-setup';
import { freePort, startN8n, waitForWebhook } from '../scripts/lib/n8n-process';
import { burst, BURST_SECRET, Sink, workNode } from '../test/helpers/delivery-burst';
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
const SECRET = BURST_SECRET;

function workflows(sinkUrl: string, ownPort: number): Workflow[] {
	const work = (id: string) => workNode(id, sinkUrl);
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
					parameters: { events: ['*'], executions: 'batch', options: {} },
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
		'Messaging Bot Trigger (batch)': `${n8n.url}/webhook/bench-trigger/messaging-bot`,
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
