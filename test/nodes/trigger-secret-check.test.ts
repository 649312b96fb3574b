import { HookContext } from 'n8n-core';
import type { IHookFunctions, INode } from 'n8n-workflow';

import { MessagingBotTrigger } from '../../nodes/MessagingBotTrigger/MessagingBotTrigger.node';
import { additionalDataFor, workflowOf, type TestWorkflow } from '../helpers/n8n';

const trigger: INode = {
	id: 't',
	name: 'Trigger',
	type: 'n8n-nodes-messaging-bot.messagingBotTrigger',
	typeVersion: 1,
	position: [0, 0],
	webhookId: 'hook',
	parameters: { events: ['*'], options: {} },
	credentials: { messagingBotWebhookApi: { id: 'w', name: 'W' } },
};
const definition: TestWorkflow = { nodes: [trigger], connections: {} };

/** What n8n runs when the workflow is published or listens: the webhook's create hook. */
async function publish(secret: string, previousSecret = ''): Promise<boolean> {
	const workflow = workflowOf(definition);
	const additionalData = additionalDataFor(definition, {
		messagingBotWebhookApi: { secret, previousSecret },
	});
	const context = new HookContext(
		workflow,
		workflow.getNode('Trigger') as INode,
		additionalData,
		'trigger',
		'activate',
		{
			httpMethod: 'POST',
			node: 'Trigger',
			path: 'hook/messaging-bot',
			webhookDescription: (new MessagingBotTrigger().description.webhooks ?? [])[0],
			workflowId: 'test',
			workflowExecuteAdditionalData: additionalData,
			webhookId: 'hook',
		},
	);
	const hooks = new MessagingBotTrigger().webhookMethods.default;
	return await hooks.create.call(context as unknown as IHookFunctions);
}

// The webhook credential has no test (nothing to connect to); the trigger checks the secrets'
// form when it starts, in n8n-core's hook context, naming the field.
describe('Messaging Bot Trigger: the signing secrets checked when it starts', () => {
	it('starts with a well-formed secret', async () => {
		await expect(publish('whsec_good')).resolves.toBe(true);
	});

	it.each([
		['', '', 'Signing Secret is empty: copy it from the subscription in the dashboard'],
		[' whsec_pasted ', '', 'Signing Secret has spaces at its start or end: copy it again'],
		['whsec_new', 'whsec_old\n', 'Previous Signing Secret has spaces at its start or end: copy it again'],
		['whsec_same', 'whsec_same', 'Previous Signing Secret is the same as Signing Secret: clear it, or put the old secret there'],
	])('refuses secret %p / previous %p', async (secret, previous, message) => {
		await expect(publish(secret, previous)).rejects.toThrow(message);
	});
});
