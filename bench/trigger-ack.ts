/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling: runs a real n8n, never loaded by n8n */
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';

import { prepareN8n, WEBHOOK_CREDENTIAL_ID, type Workflow } from '../scripts/lib/demo-setup';
import { freePort, startN8n, waitForWebhook } from '../scripts/lib/n8n-process';
import { fmt, percentile, table } from './lib';

/**
 * Acknowledgement latency and deliveries per second: the Messaging Bot Trigger (signature check,
 * parsing, durable dedupe) against n8n's own Webhook node answering on receipt, both in one real
 * n8n, 20 concurrent callers, alternating rounds so neither gets the warmer instance.
 * n8n 2.x takes an expression isolate for every webhook whose start node is not its own Webhook
 * node; `N8N_EXPRESSION_ENGINE=legacy npm run bench:trigger-ack` measures without that cost.
 */
const PER_ROUND = Number(process.env.BENCH_DELIVERIES ?? 100);
const CONCURRENCY = 20;
const ROUNDS = 2;
const SECRET = ['whsec', 'bench'].join('_');

const workflows: Workflow[] = [
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
		],
		connections: {},
		settings: {},
		active: false,
	},
	{
		id: 'benchUnsigned001',
		name: 'Bench: Messaging Bot Trigger without a secret',
		nodes: [
			{
				id: 'c1',
				name: 'Trigger',
				type: 'n8n-nodes-messaging-bot.messagingBotTrigger',
				typeVersion: 1,
				position: [0, 0],
				webhookId: 'bench-unsigned',
				parameters: { events: ['*'], options: {} },
			},
		],
		connections: {},
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
		],
		connections: {},
		settings: {},
		active: false,
	},
] as unknown as Workflow[];

type Result = { latencies: number[]; ms: number; failures: number };

async function load(url: string, signed: boolean, dispatcher: Agent): Promise<Result> {
	const latencies: number[] = [];
	let failures = 0;
	let next = 0;
	const started = performance.now();
	await Promise.all(
		Array.from({ length: CONCURRENCY }, async () => {
			while (next < PER_ROUND) {
				const i = next++;
				const body = JSON.stringify({
					event: 'order.created',
					data: { client_id: 'cl_ada', order_id: `ord_${i}` },
					webhook_id: 'wh_bench',
					timestamp: new Date().toISOString(),
				});
				const headers: Record<string, string> = {
					'Content-Type': 'application/json',
					'X-Service-Event': 'order.created',
					'X-Service-Delivery-ID': `dlv_${Date.now()}_${i}_${Math.random()}`,
					'User-Agent': 'Service-Webhooks/1.0',
				};
				if (signed)
					headers['X-Service-Signature'] =
						`sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
				const t = performance.now();
				const res = await request(url, { method: 'POST', headers, body, dispatcher });
				await res.body.dump();
				latencies.push(performance.now() - t);
				if (res.statusCode !== 200) failures++;
			}
		}),
	);
	return { latencies, ms: performance.now() - started, failures };
}

async function main(): Promise<void> {
	const userFolder = mkdtempSync(path.join(tmpdir(), 'mb-bench-'));
	const options = {
		userFolder,
		port: await freePort(),
		brokerPort: await freePort(),
		env: {
			EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'none',
			...(process.env.BENCH_N8N_NODE_OPTIONS
				? { NODE_OPTIONS: process.env.BENCH_N8N_NODE_OPTIONS }
				: {}),
		},
	};
	prepareN8n(options, { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'unused' }, SECRET, workflows);
	const n8n = await startN8n(options);
	const urls = {
		trigger: `${n8n.url}/webhook/bench-trigger/messaging-bot`,
		webhook: `${n8n.url}/webhook/bench-plain`,
		unsigned: `${n8n.url}/webhook/bench-unsigned/messaging-bot`,
	};
	const dispatcher = new Agent({ connections: CONCURRENCY });
	try {
		await waitForWebhook(urls.webhook);
		await waitForWebhook(urls.trigger);
		await waitForWebhook(urls.unsigned);
		type Kind = 'trigger' | 'unsigned' | 'webhook';
		const all: Record<Kind, Result[]> = { trigger: [], unsigned: [], webhook: [] };
		for (let round = 0; round <= ROUNDS; round++) {
			const order: Kind[] =
				round % 2 ? ['webhook', 'unsigned', 'trigger'] : ['trigger', 'unsigned', 'webhook'];
			for (const kind of order) {
				const result = await load(urls[kind], kind === 'trigger', dispatcher);
				process.stderr.write(
					`round ${round} ${kind}: ${result.latencies.length} in ${result.ms.toFixed(0)} ms, ${result.failures} non-200\n`,
				);
				if (round > 0) all[kind].push(result); // round 0 warms up both
			}
		}
		const summary = (kind: Kind) => {
			const latencies = all[kind].flatMap((r) => r.latencies).sort((a, b) => a - b);
			const ms = all[kind].reduce((s, r) => s + r.ms, 0);
			return {
				latencies,
				perSecond: (latencies.length / ms) * 1000,
				failures: all[kind].reduce((s, r) => s + r.failures, 0),
			};
		};
		const t = summary('trigger');
		const u = summary('unsigned');
		const w = summary('webhook');
		const row = (name: string, s: typeof t) => ({
			endpoint: name,
			deliveries: s.latencies.length,
			'non-200': s.failures,
			'median ack': `${percentile(s.latencies, 50).toFixed(0)} ms`,
			'p99 ack': `${percentile(s.latencies, 99).toFixed(0)} ms`,
			'deliveries/s': s.perSecond.toFixed(1),
		});
		process.stdout.write(
			`Acknowledgement in a real n8n, ${CONCURRENCY} concurrent callers, ${ROUNDS} rounds of ${PER_ROUND}, expression engine ${process.env.N8N_EXPRESSION_ENGINE ?? 'vm (n8n default)'}\n`,
		);
		process.stdout.write(
			`${table([row('Messaging Bot Trigger', t), row('Messaging Bot Trigger, no secret', u), row('n8n Webhook node', w)])}\n`,
		);
		process.stdout.write(
			`ratio trigger / webhook: throughput ${(t.perSecond / w.perSecond).toFixed(2)}, median latency ${(percentile(t.latencies, 50) / percentile(w.latencies, 50)).toFixed(2)}, p99 ${(percentile(t.latencies, 99) / percentile(w.latencies, 99)).toFixed(2)}; every ack within the 5 s limit: ${Math.max(...t.latencies) < 5000 ? 'yes' : 'no'} (max ${fmt(Math.max(...t.latencies))})\n`,
		);
	} finally {
		await dispatcher.close();
		await n8n.stop();
		rmSync(userFolder, { recursive: true, force: true });
	}
}

void main();
