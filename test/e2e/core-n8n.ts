/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- end-to-end tooling: runs a real n8n, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { prepareN8n, productionUrl, type Workflow } from '../../scripts/lib/demo-setup';
import {
	freePort,
	startN8n,
	waitForWebhook,
	type N8nOptions,
	type RunningN8n,
} from '../../scripts/lib/n8n-process';
import { startEmulator, type RunningEmulator } from '../emulator';
import { admin } from '../helpers/emulator';
import { until } from './conversation';
import { executions, redeliver, SECRET, subscribe } from './core';

/** A real n8n with the packed package, the emulator subscribed to its order and bot workflows. */
export interface CoreN8n {
	emulator: RunningEmulator;
	n8n: RunningN8n;
	options: N8nOptions;
	ordersUrl: string;
	botUrl: string;
	stop(): Promise<void>;
}

/**
 * Starts the emulator and an n8n (`n8nVersion`, the default one when absent) with `workflows`
 * imported and published, and subscribes the emulator to `orders` (order.created) and `bot`
 * (message.received) once n8n answers their test events.
 */
export async function startCoreN8n(
	workflows: Workflow[],
	orders: Workflow,
	bot: Workflow,
	n8nVersion?: string,
): Promise<CoreN8n> {
	const emulator = await startEmulator();
	const options: N8nOptions = {
		userFolder: mkdtempSync(path.join(tmpdir(), 'mb-e2e-')),
		port: await freePort(),
		brokerPort: await freePort(),
		...(n8nVersion ? { n8nVersion } : {}),
	};
	prepareN8n(options, { baseUrl: emulator.baseUrl, apiKey: emulator.apiKey }, SECRET, workflows);
	const n8n = await startN8n(options);
	const ordersUrl = productionUrl(n8n.url, orders);
	const botUrl = productionUrl(n8n.url, bot);
	for (const [url, event] of [
		[ordersUrl, 'order.created'],
		[botUrl, 'message.received'],
	]) {
		await waitForWebhook(url);
		if ((await subscribe(emulator, url, [event])) !== 'delivered')
			throw new Error(`n8n did not answer the test event at ${url}`);
	}
	const core: CoreN8n = {
		emulator,
		n8n,
		options,
		ordersUrl,
		botUrl,
		// The n8n running then: a test that restarts n8n puts the new one in `core.n8n`.
		stop: async () => {
			await core.n8n.stop();
			await emulator.close();
			rmSync(options.userFolder, { recursive: true, force: true });
		},
	};
	return core;
}

/**
 * An order arrives and its delivery is sent again five times at once, as the service's
 * redelivery does; resolves with how many executions the workflow gained (one is right).
 */
export async function executionsAfterRedelivery(
	core: CoreN8n,
	workflowId: string,
	orderId: string,
): Promise<{ answers: number[]; gained: number }> {
	const { emulator, options, ordersUrl } = core;
	const before = executions(options.userFolder, workflowId).length;
	const { body } = await admin<{ delivery_ids: string[] }>(emulator, 'POST', '/events', {
		event: 'order.created',
		data: { client_id: 'cl_katherine', order_id: orderId },
	});
	await admin(emulator, 'POST', '/settle');
	const answers = await redeliver(emulator, ordersUrl, body.data.delivery_ids[0]);
	// Time for a second execution to show, had the redelivery started one.
	await new Promise((r) => setTimeout(r, 1_500));
	const runs = await until(
		() => executions(options.userFolder, workflowId),
		(r) => r.length >= before + 1,
	);
	return { answers, gained: runs.length - before };
}
