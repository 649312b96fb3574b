/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling: runs a real n8n, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent } from 'undici';

import { prepareN8n } from '../scripts/lib/demo-setup';
import { freePort, startN8n, waitForWebhook } from '../scripts/lib/n8n-process';
import { onRedis, startQueueMode, STATE_DBS } from '../test/e2e/queue';
import { burst, BURST_SECRET, Sink } from '../test/helpers/delivery-burst';
import { fmt, percentile, table } from './lib';
import { ackWorkflows } from './trigger-ack-workflows';

/**
 * Bursts of distinct signed deliveries, N at a time, into a real n8n under its default settings:
 * one n8n in regular mode, then n8n in queue mode (a main process, a webhook processor and two
 * workers, on PostgreSQL and Redis). The Messaging Bot Trigger on its own port, and on n8n's
 * webhook URL (Batch Deliveries), against n8n's own Webhook node answering on receipt. Each
 * workflow posts every delivery id to a sink in this script, which tells when every delivery's
 * work is done, and whether any was done twice. BENCH_MODES=regular,queue picks the setups.
 */
const LEVELS = (process.env.BENCH_LEVELS ?? '20,50,100,200').split(',').map(Number);
const MODES = (process.env.BENCH_MODES ?? 'regular,queue').split(',');
const DELIVERIES: Record<number, number> = { 20: 100, 50: 200, 100: 300, 200: 400 };
const SECRET = BURST_SECRET;

type Setup = { urls: Record<string, string>; stop(): Promise<void> };

async function regular(sinkUrl: string): Promise<Setup> {
	const userFolder = mkdtempSync(path.join(tmpdir(), 'mb-bench-'));
	const options = { userFolder, port: await freePort(), brokerPort: await freePort() };
	const ownPort = await freePort();
	const api = { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'unused' };
	prepareN8n(options, api, SECRET, ackWorkflows(sinkUrl, ownPort));
	const n8n = await startN8n(options);
	return {
		urls: {
			'Trigger (Own Port)': `http://127.0.0.1:${ownPort}/messaging-bot`,
			'Messaging Bot Trigger (batch)': `${n8n.url}/webhook/bench-trigger/messaging-bot`,
			'n8n Webhook node': `${n8n.url}/webhook/bench-plain`,
		},
		async stop() {
			await n8n.stop();
			rmSync(userFolder, { recursive: true, force: true });
		},
	};
}

/** Main (with the Own Port Trigger's listener), one webhook processor, two workers. */
async function queue(sinkUrl: string): Promise<Setup> {
	const ownPort = await freePort();
	const api = { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'unused' };
	const n8n = await startQueueMode(api, SECRET, ackWorkflows(sinkUrl, ownPort).map(onRedis), {
		stateDb: STATE_DBS.bench,
		env: { N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' },
		webhookProcessors: 1,
	});
	const hooks = n8n.webhooks[0].url;
	return {
		urls: {
			'Trigger (Own Port)': `http://127.0.0.1:${ownPort}/messaging-bot`,
			'Messaging Bot Trigger (batch)': `${hooks}/webhook/bench-trigger/messaging-bot`,
			'n8n Webhook node': `${hooks}/webhook/bench-plain`,
		},
		stop: () => n8n.stop(),
	};
}

async function measure(urls: Record<string, string>, sink: Sink) {
	const dispatcher = new Agent({ connections: 400 });
	const rows: Array<Record<string, string | number>> = [];
	try {
		for (const url of Object.values(urls)) await waitForWebhook(url);
		// Warm each up once.
		for (const url of Object.values(urls))
			await burst(url, 10, 20, sink, dispatcher, `warm${url.length}${Date.now()}`);
		for (const concurrent of LEVELS) {
			const total = DELIVERIES[concurrent] ?? concurrent * 2;
			for (const [name, url] of Object.entries(urls)) {
				const tag = `${concurrent}_${name.length}_${Date.now()}`;
				const r = await burst(url, concurrent, total, sink, dispatcher, tag);
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
	} finally {
		await dispatcher.close();
	}
	return rows;
}

async function main(): Promise<void> {
	const sink = new Sink();
	const sinkUrl = await sink.start();
	const titles: Record<string, string> = {
		regular: 'one real n8n (regular mode, default settings)',
		queue: 'n8n in queue mode (main, 1 webhook processor, 2 workers; PostgreSQL, Redis)',
	};
	try {
		for (const mode of MODES) {
			const setup = mode === 'queue' ? await queue(sinkUrl) : await regular(sinkUrl);
			try {
				const rows = await measure(setup.urls, sink);
				process.stdout.write(
					`Acknowledgement in ${titles[mode]}, distinct signed deliveries N at a time\n${table(rows)}\n\n`,
				);
			} finally {
				await setup.stop();
			}
		}
	} finally {
		await sink.close();
	}
}

void main();
