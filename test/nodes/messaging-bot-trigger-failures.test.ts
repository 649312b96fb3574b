/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling: temporary files, unhandled-rejection watch, never loaded by n8n */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { INodeParameters } from 'n8n-workflow';

import { referenceSignature } from '../helpers/deliveries';
import { WebhookHost } from '../helpers/webhook-host';
import { delivery, message, post, SECRET, useTriggerWorkflows } from './trigger-fixture';

const triggerWorkflow = useTriggerWorkflows();

/**
 * The trigger on n8n's URL with a failure injected at each stage of reading a delivery: every
 * request is answered (a 4xx naming why, or a 503 so the service retries), none hangs, nothing is
 * thrown past the node, and no execution starts for what was not recorded.
 */
describe('Messaging Bot Trigger: a failure at each stage is answered', () => {
	const dir = mkdtempSync(path.join(tmpdir(), 'mb-trigger-fail-'));
	const hosts: WebhookHost[] = [];
	const unhandled: unknown[] = [];
	const onUnhandled = (reason: unknown) => unhandled.push(reason);
	beforeAll(() => process.on('unhandledRejection', onUnhandled));
	afterAll(async () => {
		process.off('unhandledRejection', onUnhandled);
		for (const host of hosts) await host.stop();
		rmSync(dir, { recursive: true, force: true });
	});
	afterEach(() => expect(unhandled).toEqual([]));

	async function hostWith(parameters: INodeParameters = {}) {
		const host = await new WebhookHost(triggerWorkflow(parameters), {
			messagingBotWebhookApi: { secret: SECRET, previousSecret: '' },
		}).start();
		hosts.push(host);
		return host;
	}

	it('parse: a signed body that is not a delivery gets 400 naming the field', async () => {
		const host = await hostWith();
		const body = JSON.stringify({
			event: 'order.created',
			data: [],
			webhook_id: 'w',
			timestamp: 'x',
		});
		const res = await fetch(host.url, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				'x-service-signature': referenceSignature(SECRET, body),
				'x-service-delivery-id': 'd1',
			},
			body,
		});
		expect(res.status).toBe(400);
		expect(await res.json()).toMatchObject({ message: expect.stringMatching(/data .*object/) });
		expect(host.executions).toHaveLength(0);
	});

	it('verify: a delivery signed with another secret gets 401', async () => {
		const host = await hostWith();
		const r = await post(host, delivery('order.created', { order_id: 'o1' }, 'd2', 'whsec_other'));
		expect(r.status).toBe(401);
		expect(host.executions).toHaveLength(0);
	});

	it('store: a state file that cannot be opened gets 503, and the service may retry', async () => {
		// A file where the state folder should be: the store cannot be created.
		const blocked = path.join(dir, 'blocked');
		writeFileSync(blocked, 'not a folder');
		const host = await hostWith({ options: { statePath: path.join(blocked, 'state.sqlite') } });
		const r = await post(host, delivery('message.received', message('m1'), 'd3'));
		expect(r.status).toBe(503);
		expect(r.body).toEqual({
			success: false,
			message: 'Not recorded this time: send the delivery again',
		});
		await host.idle();
		expect(host.executions).toHaveLength(0);
	});

	it('dispatch: Batch Deliveries with an unusable store gets 503 too', async () => {
		const folder = path.join(dir, 'gone');
		mkdirSync(folder);
		rmSync(folder, { recursive: true });
		writeFileSync(folder, 'not a folder');
		const host = await hostWith({
			executions: 'batch',
			options: { statePath: path.join(folder, 'state.sqlite') },
		});
		const r = await post(host, delivery('order.created', { order_id: 'o2' }, 'd4'));
		expect(r.status).toBe(503);
		await host.idle();
		expect(host.executions).toHaveLength(0);
	});
});
