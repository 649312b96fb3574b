import {
	NodeConnectionTypes,
	type IDataObject,
	type IHookFunctions,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import {
	admitDelivery,
	answerSafely,
	readDelivery,
	type Answer,
	type IntakeOptions,
} from '../../runtime/webhooks';
import {
	deliveryOptionsProperty,
	eventsProperty,
	checkSigningSecrets,
	rawBytes,
	refreshedSigningSecrets,
	refusedWhileListening,
	signingSecrets,
	triggerSubtitle,
	webhookSigningSecrets,
} from '../shared/delivery';
import { botFilterProperties, selectedBots } from '../shared/botFilter';
import { getBots } from '../shared/listSearch';
import { scenarioInbox } from '../shared/conversationScope';
import { messagingBotWebhookSecrets } from '../shared/secretsTest';
import {
	messagingBotPostgresPing,
	messagingBotRedisPing,
	nodeStateStore,
	stateStoreProperty,
} from '../shared/stateStore';
import { DOCS } from '../shared/documentation';

export class MessagingBotTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Messaging Bot Trigger',
		name: 'messagingBotTrigger',
		icon: { light: 'file:messagingBotTrigger.svg', dark: 'file:messagingBotTrigger.dark.svg' },
		group: ['trigger'],
		// Version 2 is the same node. n8n evaluates the Webhook node's old binaryData option in its
		// expression isolate for every request to a version-1 start node; from version 2 it does not.
		version: [1, 2],
		defaultVersion: 2,
		subtitle: triggerSubtitle,
		description:
			'Starts the workflow when the messaging-bot service sends an event (new message, order, tag, …)',
		defaults: { name: 'Messaging Bot Trigger' },
		// Used as is by the editor's Docs link (the codex URL would get tracking added after the anchor).
		documentationUrl: DOCS.trigger,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'messagingBotWebhookApi', required: false, testedBy: 'messagingBotWebhookSecrets' },
			// Only to list the bots in the Bots filter.
			{
				name: 'messagingBotApi',
				required: true,
				displayOptions: { show: { botFilter: ['list'] } },
			},
			{
				name: 'messagingBotRedisApi',
				required: true,
				testedBy: 'messagingBotRedisPing',
				displayOptions: { show: { stateStore: ['redis'] } },
			},
			{
				name: 'messagingBotPostgresApi',
				required: true,
				testedBy: 'messagingBotPostgresPing',
				displayOptions: { show: { stateStore: ['postgres'] } },
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
					"To connect the service: open <b>Webhook URLs</b> at the top of this panel, choose <b>Production URL</b> and copy it. In the service dashboard, open Webhooks, add a subscription with that URL, pick the events, set a secret key and save; put the same secret in this node's credential. To try it first: copy the <b>Test URL</b> into the subscription instead, click <b>Execute step</b> here (or <b>Test this trigger</b> on the canvas), then send an event. The test event the service sends when a subscription is saved is acknowledged and does not end listening (unless the option Pass Test Events is on); a delivery with a wrong signature shows its error here.",
				name: 'setupNotice',
				type: 'notice',
				default: '',
			},
			eventsProperty,
			...botFilterProperties,
			{
				displayName: 'Executions Under Load',
				name: 'executions',
				type: 'options',
				noDataExpression: true,
				default: 'perDelivery',
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
							"Every delivery is its own execution, as with n8n's Webhook node. For bursts of 100 or more at once, use the Messaging Bot Own Port Trigger.",
					},
				],
				description: 'How deliveries become executions when many arrive at once',
			},
			stateStoreProperty('the delivery IDs already seen (48 hours) and the deliveries waiting'),

			deliveryOptionsProperty,
		],
	};

	methods = {
		credentialTest: { messagingBotPostgresPing, messagingBotRedisPing, messagingBotWebhookSecrets },
		loadOptions: { getBots },
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
				await checkSigningSecrets(this);
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
		const manual = this.getMode() === 'manual';
		const delivery = {
			raw: rawBytes(this.getRequestObject().rawBody, this.getBodyData()),
			headers: this.getHeaderData(),
		};
		// Listening in the editor, where secrets are tried out, they are always read afresh.
		const secrets = manual ? await signingSecrets(this) : await webhookSigningSecrets(this);
		let read = readDelivery(delivery, secrets);
		// Not signed with the secrets kept: they may have changed since (re-read at a bounded rate).
		if (read.kind === 'rejected' && read.status === 401 && !manual) {
			const fresh = await refreshedSigningSecrets(this);
			if (fresh) read = readDelivery(delivery, fresh);
		}
		if (read.kind === 'rejected') {
			// Thrown, n8n shows it on the trigger in the editor (and answers the service 500).
			if (manual) throw refusedWhileListening(this.getNode(), read.status, read.body.message);
			return answerNow(this, read);
		}
		const log = (message: string) => this.logger.error(`Messaging Bot Trigger: ${message}`);
		const outcome = await answerSafely(
			async () => await admitDelivery(read, delivery, intakeOptions(this, secrets, manual)),
			log,
		);
		if (outcome.kind === 'failed') return answerNow(this, outcome);
		if (outcome.kind === 'ignored') return { webhookResponse: outcome.body };
		if (!outcome.answerFirst) {
			const items = (await outcome.items()) as IDataObject[];
			return { workflowData: [this.helpers.returnJsonArray(items)], webhookResponse: outcome.body };
		}
		// Kept in the store already: the service is answered now, before any execution starts.
		answerNow(this, outcome);
		const items = await answerSafely(async () => (await outcome.items()) as IDataObject[], log);
		if (!Array.isArray(items) || items.length === 0) return { noWebhookResponse: true };
		return { noWebhookResponse: true, workflowData: [this.helpers.returnJsonArray(items)] };
	}
}

/** What the intake needs to know of this trigger's parameters. */
function intakeOptions(ctx: IWebhookFunctions, secrets: string[], manual: boolean): IntakeOptions {
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	if (secrets.length === 0)
		ctx.logger.warn(
			'Messaging Bot Trigger: no signing secret is set, so deliveries are accepted without checking who sent them',
		);
	return {
		secrets,
		events: ctx.getNodeParameter('events', ['*']) as string[],
		bots: selectedBots(ctx),
		listening: manual,
		passTestEvents: options.passTestEvents === true,
		includeHeaders: options.includeHeaders === true,
		includeRawBody: options.includeRawBody === true,
		scope: ctx.getWorkflow().id ?? 'workflow',
		...scenarioInbox(ctx),
		batch: ctx.getNodeParameter('executions', 'perDelivery') === 'batch',
		store: async () =>
			await nodeStateStore(
				ctx,
				ctx.getNodeParameter('stateStore', 'sqlite') as string,
				options.statePath,
				options.refuseLossyRedis,
			),
	};
}

/** Writes the answer at once, outside n8n's own response. */
function answerNow(ctx: IWebhookFunctions, answer: Answer): IWebhookResponseData {
	const res = ctx.getResponseObject();
	res.writeHead(answer.status, { 'Content-Type': 'application/json' });
	res.end(JSON.stringify(answer.body));
	return { noWebhookResponse: true };
}
