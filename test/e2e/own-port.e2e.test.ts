/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- end-to-end tooling: runs a real n8n, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent } from 'undici';

import { prepareN8n, WEBHOOK_CREDENTIAL_ID, type Workflow } from '../../scripts/lib/demo-setup';
import {
	freePort,
	RESTARTABLE_ENV,
	restartN8n,
	startN8n,
	waitForWebhook,
	type N8nOptions,
	type RunningN8n,
} from '../../scripts/lib/n8n-process';
import { burst, BURST_SECRET, Sink, workNode } from '../helpers/delivery-burst';

jest.setTimeout(600_000);

/** Own Port Trigger → an HTTP Request node that posts each delivery id to the sink. */
function workflow(sinkUrl: string, port: number): Workflow {
	return {
		id: 'mbOwnPortBurst01',
		name: 'Own port burst',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: 'e0000000-0000-4000-8000-000000000001',
				name: 'Trigger',
				type: 'n8n-nodes-messaging-bot.messagingBotPortTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: { port, host: '127.0.0.1', events: ['*'], options: {} },
				credentials: {
					messagingBotWebhookApi: { id: WEBHOOK_CREDENTIAL_ID, name: 'Messaging Bot Webhook' },
				},
			},
			workNode('e0000000-0000-4000-8000-000000000002', sinkUrl),
		],
		connections: { Trigger: { main: [[{ node: 'Do the work', type: 'main', index: 0 }]] } },
	} as unknown as Workflow;
}

// The trigger on its own port in a real n8n: a burst of 300 deliveries, 100 at a time; then the
// same with n8n killed with SIGKILL right after the last answer, and started again.
describe('Own Port Trigger under a burst, in a real n8n', () => {
	let n8n: RunningN8n;
	let options: N8nOptions;
	let url: string;
	const sink = new Sink();
	const agent = new Agent({ connections: 100 });

	beforeAll(async () => {
		const sinkUrl = await sink.start();
		const port = await freePort();
		options = {
			userFolder: mkdtempSync(path.join(tmpdir(), 'mb-port-')),
			port: await freePort(),
			brokerPort: await freePort(),
			env: RESTARTABLE_ENV,
		};
		prepareN8n(options, { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'unused' }, BURST_SECRET, [
			workflow(sinkUrl, port),
		]);
		n8n = await startN8n(options);
		url = `http://127.0.0.1:${port}/messaging-bot`;
		await waitForWebhook(url);
	}, 600_000);

	afterAll(async () => {
		await n8n?.stop();
		await agent.close();
		await sink.close();
		if (options) rmSync(options.userFolder, { recursive: true, force: true });
	});

	it('answers 300 deliveries, 100 at a time, well inside 5 s and works on each once', async () => {
		const r = await burst(url, 100, 300, sink, agent, 'calm');
		process.stdout.write(
			`own port, 300 at 100 concurrent: p99 ack ${Math.round(r.latencies[Math.floor(r.latencies.length * 0.99) - 1])} ms, max ${Math.round(r.latencies[r.latencies.length - 1])} ms, all work done in ${Math.round(r.workMs)} ms\n`,
		);
		expect(r.failures).toBe(0);
		expect(r.latencies[r.latencies.length - 1]).toBeLessThan(5000);
		expect(r.missing).toBe(0);
		expect(r.twice).toBe(0);
	});

	it('loses no acknowledged delivery when n8n is killed right after the last answer', async () => {
		const r = await burst(
			url,
			100,
			300,
			sink,
			agent,
			'kill',
			async () => {
				await n8n.kill();
				n8n = await restartN8n(options);
			},
			120_000,
		);
		const lost = r.acked.filter((id) => !sink.done.has(id));
		process.stdout.write(
			`own port, killed after the last answer: ${r.acked.length} acknowledged, ${lost.length} without work after the restart, ${r.twice} worked on twice (started again after the kill)\n`,
		);
		expect(r.acked).toHaveLength(300);
		expect(lost).toEqual([]);
	});
});
