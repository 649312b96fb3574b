import { HookContext } from 'n8n-core';
import type { IHookFunctions, INode } from 'n8n-workflow';

import { MessagingBotPortTrigger } from '../../nodes/MessagingBotPortTrigger/MessagingBotPortTrigger.node';
import { MessagingBotTrigger } from '../../nodes/MessagingBotTrigger/MessagingBotTrigger.node';
import { additionalDataFor, workflowOf, type TestWorkflow } from '../helpers/n8n';
import { triggerNode } from '../helpers/workflows';

const trigger = triggerNode({ events: ['*'], options: {} });
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

const malformed = [
	['', '', 'Signing Secret is empty: copy it from the subscription in the dashboard'],
	[' whsec_pasted ', '', 'Signing Secret has spaces at its start or end: copy it again'],
	['whsec_pasted ', '', 'Signing Secret has spaces at its start or end: copy it again'],
	['whsec_new', 'whsec_old\n', 'Previous Signing Secret has spaces at its start or end: copy it again'],
	['whsec_same', 'whsec_same', 'Previous Signing Secret is the same as Signing Secret: clear it, or put the old secret there'],
];

// The trigger checks the secrets' form when it starts, in n8n-core's hook context, naming the field.
describe('Messaging Bot Trigger: the signing secrets checked when it starts', () => {
	it('starts with a well-formed secret', async () => {
		await expect(publish('whsec_good')).resolves.toBe(true);
	});

	it.each(malformed)('refuses secret %p / previous %p', async (secret, previous, message) => {
		await expect(publish(secret, previous)).rejects.toThrow(message);
	});
});

/** The credential test n8n runs on saving the credential: the method its `testedBy` names. */
async function credentialTest(node: MessagingBotTrigger | MessagingBotPortTrigger, data: object) {
	const entry = node.description.credentials?.find((c) => c.name === 'messagingBotWebhookApi');
	const test = node.methods.credentialTest[entry?.testedBy as 'messagingBotWebhookSecrets'];
	return await test.call({} as never, {
		id: 'w',
		name: 'W',
		type: 'messagingBotWebhookApi',
		data: data as never,
	});
}

// Saving the webhook credential tests it (no need to start a trigger to find a pasted space):
// both triggers name the same test, which checks the form and says that is what it checked.
describe.each([
	['Messaging Bot Trigger', new MessagingBotTrigger()],
	['Own Port Trigger', new MessagingBotPortTrigger()],
])('%s: the webhook credential test', (_name, node) => {
	it.each(malformed)('fails secret %p / previous %p, naming the field', async (secret, previous, message) => {
		await expect(credentialTest(node, { secret, previousSecret: previous })).resolves.toEqual({
			status: 'Error',
			message,
		});
	});

	it('passes well-formed secrets and says it checked their form only', async () => {
		const result = await credentialTest(node, { secret: 'whsec_new', previousSecret: 'whsec_old' });
		expect(result.status).toBe('OK');
		expect(result.message).toMatch(/^Form checked: Signing Secret is set/);
		expect(result.message).toContain('Previous Signing Secret differs from it');
		expect(result.message).toContain('refused (401)');
	});
});
