import {
	NodeConnectionTypes,
	type ICredentialsDecrypted,
	type ICredentialTestFunctions,
	type IDataObject,
	type IHookFunctions,
	type INodeCredentialTestResult,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { EVENT_TYPES, receiveDelivery } from '../../runtime/webhooks';
import { messagingBotRedisPing, openStateStore, stateStoreProperty } from '../shared/stateStore';

const eventOptions = EVENT_TYPES.map((value) => ({
	name: value.replace(/\./g, ' ').replace(/\b\w/g, (c) => c.toUpperCase()),
	value,
}));

export class MessagingBotTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Messaging Bot Trigger',
		name: 'messagingBotTrigger',
		icon: { light: 'file:messagingBotTrigger.svg', dark: 'file:messagingBotTrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{ $parameter["events"].includes("*") ? "All events" : $parameter["events"].join(", ") }}',
		description:
			'Starts the workflow when the messaging-bot service sends an event (new message, order, tag, …)',
		defaults: { name: 'Messaging Bot Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'messagingBotWebhookApi', required: false, testedBy: 'messagingBotWebhookSecret' },
			{
				name: 'messagingBotRedisApi',
				required: true,
				testedBy: 'messagingBotRedisPing',
				displayOptions: { show: { stateStore: ['redis'] } },
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				// Empty: n8n answers with the node's own JSON acknowledgement.
				responseData: '',
				path: 'messaging-bot',
			},
		],
		properties: [
			{
				displayName:
					'In the service dashboard, open Webhooks, add a subscription, paste this node\'s <b>Production URL</b> (above), pick the events, set a secret key and save. Put the same secret in this node\'s credential. The dashboard sends a test event when you save. While you click "Listen for test event" here, use the <b>Test URL</b> instead.',
				name: 'setupNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['*'],
				description: 'The events that start the workflow; others are acknowledged and ignored',
				options: [{ name: 'All Events', value: '*' }, ...eventOptions],
			},
			{
				displayName: 'Executions Under Load',
				name: 'executions',
				type: 'options',
				noDataExpression: true,
				default: 'batch',
				options: [
					{
						name: 'Batch Deliveries',
						value: 'batch',
						description:
							'Each delivery is kept and answered at once; its execution takes every delivery kept and not yet started, as items. A quiet workflow still gets one execution per delivery; a burst gets fewer.',
					},
					{
						name: 'One Execution per Delivery',
						value: 'perDelivery',
						description:
							'Every delivery is its own execution, also during bursts: each costs n8n an execution, and a burst of 100 or more can make the service time out',
					},
				],
				description: 'How deliveries become executions when many arrive at once',
			},
			stateStoreProperty('the delivery IDs already seen (48 hours) and the deliveries waiting'),

			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Include Headers',

						name: 'includeHeaders',
						type: 'boolean',
						default: false,
						description: 'Whether to add the request headers to the output item',
					},
					{
						displayName: 'Include Raw Body',
						name: 'includeRawBody',
						type: 'boolean',
						default: false,
						description: 'Whether to add the exact request body (the signed bytes) as text',
					},
					{
						displayName: 'Pass Test Events',
						name: 'passTestEvents',
						type: 'boolean',
						default: false,
						description:
							'Whether the test event the service sends when a subscription is saved starts the workflow (it always does while listening in the editor)',
					},
					{
						displayName: 'State File',
						name: 'statePath',
						type: 'string',
						default: '',
						placeholder: '~/.n8n/messaging-bot/state.sqlite',
						description:
							"With the SQLite store: the file where delivery IDs already seen are kept. Leave empty for the default beside n8n's database.",
					},
				],
			},
		],
	};

	methods = {
		credentialTest: {
			messagingBotRedisPing,
			async messagingBotWebhookSecret(
				this: ICredentialTestFunctions,
				credential: ICredentialsDecrypted,
			): Promise<INodeCredentialTestResult> {
				const { secret, previousSecret } = (credential.data ?? {}) as {
					secret?: string;
					previousSecret?: string;
				};
				if (!secret)
					return {
						status: 'Error',
						message: 'Set the signing secret from the subscription in the dashboard',
					};
				if (secret.trim() !== secret)
					return {
						status: 'Error',
						message: 'The secret has spaces at its start or end: copy it again',
					};
				if (previousSecret && previousSecret === secret) {
					return { status: 'Error', message: 'The previous secret is the same as the current one' };
				}
				return { status: 'OK', message: 'Secret set: deliveries will be verified' };
			},
		},
	};

	// Subscriptions are made in the service dashboard; the service has no API for them (A34).
	// These methods only remember which URL this workflow published, so n8n can tell it is set up.
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const data = this.getWorkflowStaticData('node');
				return data.webhookUrl === this.getNodeWebhookUrl('default');
			},
			async create(this: IHookFunctions): Promise<boolean> {
				const data = this.getWorkflowStaticData('node');
				data.webhookUrl = this.getNodeWebhookUrl('default');
				this.logger.info(
					`Messaging Bot Trigger: add a subscription in the service dashboard for ${String(data.webhookUrl)} (subscriptions cannot be created through the API)`,
				);
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				const data = this.getWorkflowStaticData('node');
				delete data.webhookUrl;
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const res = this.getResponseObject();
		const options = this.getNodeParameter('options', {}) as IDataObject;
		const secrets = await signingSecrets(this);
		if (secrets.length === 0)
			this.logger.warn(
				'Messaging Bot Trigger: no signing secret is set, so deliveries are accepted without checking who sent them',
			);
		const batching = this.getNodeParameter('executions', 'batch') === 'batch';
		const outcome = await receiveDelivery(
			{
				raw: rawBytes(this.getRequestObject().rawBody, this.getBodyData()),
				headers: this.getHeaderData(),
			},
			{
				secrets,
				events: this.getNodeParameter('events', ['*']) as string[],
				listening: this.getMode() === 'manual',
				passTestEvents: options.passTestEvents === true,
				includeHeaders: options.includeHeaders === true,
				includeRawBody: options.includeRawBody === true,
				scope: this.getWorkflow().id ?? 'workflow',
				recordMessages: feedsScenario(this),
				batch: batching,
				store: async () =>
					await openStateStore(
						this.getNodeParameter('stateStore', 'sqlite') as string,
						String(options.statePath ?? ''),
						async (type) => await this.getCredentials(type),
					),
			},
		);
		if (outcome.kind === 'rejected') {
			res.writeHead(outcome.status, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify(outcome.body));
			return { noWebhookResponse: true };
		}
		if (outcome.kind === 'ignored') return { webhookResponse: outcome.body };
		if (!outcome.answerFirst) {
			const items = (await outcome.items()) as IDataObject[];
			return { workflowData: [this.helpers.returnJsonArray(items)], webhookResponse: outcome.body };
		}
		// Kept in the store already: the service is answered now, before any execution starts.
		res.writeHead(200, { 'Content-Type': 'application/json' });
		res.end(JSON.stringify(outcome.body));
		const items = (await outcome.items()) as IDataObject[];
		if (items.length === 0) return { noWebhookResponse: true };
		return { noWebhookResponse: true, workflowData: [this.helpers.returnJsonArray(items)] };
	}
}

/** A Scenario node handling messages follows this trigger: messages go to its inboxes. */
function feedsScenario(ctx: IWebhookFunctions): boolean {
	return ctx
		.getChildNodes(ctx.getNode().name, { includeNodeParameters: true })
		.some(
			(node) =>
				node.type.endsWith('.messagingBotScenario') &&
				!node.disabled &&
				(node.parameters?.operation ?? 'handleMessage') === 'handleMessage',
		);
}

async function signingSecrets(ctx: IWebhookFunctions): Promise<string[]> {
	const node = ctx.getNode();
	if (!node.credentials?.messagingBotWebhookApi) return [];
	const { secret, previousSecret } = await ctx.getCredentials<{
		secret?: string;
		previousSecret?: string;
	}>('messagingBotWebhookApi');
	return [secret, previousSecret].filter((s): s is string => typeof s === 'string' && s.length > 0);
}

/** The exact bytes that were signed: n8n keeps them as `rawBody`. */
function rawBytes(rawBody: unknown, parsed: unknown): Uint8Array {
	if (rawBody instanceof Uint8Array) return rawBody;
	if (typeof rawBody === 'string') return Buffer.from(rawBody, 'utf8');
	// Without the raw bytes the signature cannot match; re-serialising is the best remaining guess.
	return Buffer.from(JSON.stringify(parsed ?? {}), 'utf8');
}
