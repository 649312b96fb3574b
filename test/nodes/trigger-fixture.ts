/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: temporary files, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { INode } from 'n8n-workflow';

import { closeSharedSqliteStores } from '../../runtime/stores/sqlite';
import { signedDelivery, type SignedDelivery } from '../helpers/deliveries';
import type { TestWorkflow } from '../helpers/n8n';
import type { WebhookHost } from '../helpers/webhook-host';
import { byId, chain, messagingBotNode, triggerNode } from '../helpers/workflows';

/** What the Messaging Bot Trigger's test files share: its workflow, signed deliveries, posting them. */

export const SECRET = ['whsec', 'current'].join('_');
export const OLD_SECRET = ['whsec', 'previous'].join('_');

/**
 * The trigger's workflow for one test file: each call a state file of its own (so no delivery is
 * remembered from another test), all in a temporary folder removed after the file's tests (afterAll).
 * `withTags`: the trigger followed by a Messaging Bot node tagging the client "customer".
 */
export function useTriggerWorkflows() {
	const dir = mkdtempSync(path.join(tmpdir(), 'mb-trigger-'));
	afterAll(async () => {
		await closeSharedSqliteStores();
		rmSync(dir, { recursive: true, force: true });
	});
	let stateFile = 0;
	return function triggerWorkflow(
		parameters: INode['parameters'] = {},
		withTags = false,
		credential = true,
	): TestWorkflow {
		const trigger = triggerNode(
			{
				events: ['*'],
				...parameters,
				options: {
					statePath: path.join(dir, `state${++stateFile}.sqlite`),
					...(parameters.options as object),
				},
			},
			{ name: 'Messaging Bot Trigger', ...(credential ? {} : { credentials: undefined }) },
		);
		const tagCustomer = messagingBotNode(
			{
				resource: 'client',
				operation: 'updateTags',
				clientId: byId('={{ $json.client_id }}'),
				add: ['customer'],
			},
			{ id: 'b', name: 'Tag Customer' },
		);
		return chain(withTags ? [trigger, tagCustomer] : [trigger]);
	};
}

// Signed by the reference signer, independently of the code under test.
export const delivery = (
	event: string,
	data: Record<string, unknown>,
	id = `dlv_${Math.random().toString(16).slice(2)}`,
	secret = SECRET,
): SignedDelivery => signedDelivery(secret, event, data, id);
export const post = async (host: WebhookHost, d: SignedDelivery) => {
	const res = await fetch(host.url, { method: 'POST', headers: d.headers, body: d.body });
	return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
export const message = (id = 'msg_1') => ({
	message_id: id,
	client_id: 'cl_ada',
	bot_id: 'bot_shop',
	text: 'hi',
	channel: 'telegram',
	timestamp: new Date().toISOString(),
	metadata: { message_type: 'text', has_attachments: false },
});
