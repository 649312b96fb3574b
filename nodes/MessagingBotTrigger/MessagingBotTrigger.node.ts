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

import {
	Deduplicator,
	EVENT_TYPES,
	parseEnvelope,
	TEST_EVENT,
	verifySignature,
} from '../../runtime/webhooks';
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
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'messaging-bot' },
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
			stateStoreProperty('the delivery IDs already seen (48 hours)'),
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
		const req = this.getRequestObject();
		const res = this.getResponseObject();
		const reject = (status: number, message: string): IWebhookResponseData => {
			res.writeHead(status, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify({ success: false, message }));
			return { noWebhookResponse: true };
		};
		const headers = this.getHeaderData();
		const raw = rawBytes(req.rawBody, this.getBodyData());

		const secrets = await signingSecrets(this);
		if (secrets.length > 0) {
			const check = verifySignature(raw, headers['x-service-signature'], secrets);
			if (!check.ok) {
				const why = {
					missing: 'no X-Service-Signature header',
					malformed: 'a malformed X-Service-Signature',
					mismatch: 'a signature that does not match',
				}[check.reason];
				return reject(401, `Rejected: the request has ${why}`);
			}
		} else {
			this.logger.warn(
				'Messaging Bot Trigger: no signing secret is set, so deliveries are accepted without checking who sent them',
			);
		}

		const parsed = parseEnvelope(raw);
		if (!parsed.ok) return reject(400, `Rejected: ${parsed.error}`);
		const { envelope } = parsed;
		const deliveryId = header(headers['x-service-delivery-id']);
		if (!deliveryId) return reject(400, 'Rejected: the X-Service-Delivery-ID header is missing');
		const eventHeader = header(headers['x-service-event']);
		if (eventHeader && eventHeader !== envelope.event) {
			return reject(
				400,
				`Rejected: X-Service-Event says ${eventHeader} but the body says ${envelope.event}`,
			);
		}

		const listening = this.getMode() === 'manual';
		const options = this.getNodeParameter('options', {}) as IDataObject;
		const isTest = envelope.event === TEST_EVENT;
		const events = this.getNodeParameter('events', ['*']) as string[];
		if (
			isTest
				? !(listening || options.passTestEvents)
				: !events.includes('*') && !events.includes(envelope.event)
		) {
			return {
				webhookResponse: {
					received: true,
					started: false,
					reason: isTest ? 'test event' : 'event not selected',
				},
			};
		}

		// In the editor, every event shows; only production deliveries are deduplicated.
		if (!listening) {
			const store = await openStateStore(
				this.getNodeParameter('stateStore', 'sqlite') as string,
				String(options.statePath ?? ''),
				async (type) => await this.getCredentials(type),
			);
			const messageId =
				envelope.event === 'message.received' ? String(envelope.data.message_id) : undefined;
			const first = await new Deduplicator(store, this.getWorkflow().id ?? 'workflow').firstSeen(
				deliveryId,
				messageId,
			);
			if (!first)
				return { webhookResponse: { received: true, started: false, reason: 'already received' } };
		}

		const item: IDataObject = {
			...(envelope.data as IDataObject),
			event: envelope.event,
			webhook_id: envelope.webhook_id,
			delivery_id: deliveryId,
			timestamp: envelope.timestamp,
			is_test: isTest,
			signature_verified: secrets.length > 0,
		};
		if (options.includeHeaders) item.headers = headers as IDataObject;
		if (options.includeRawBody) item.raw_body = Buffer.from(raw).toString('utf8');
		return { workflowData: [this.helpers.returnJsonArray([item])] };
	}
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

function header(value: string | string[] | undefined): string | undefined {
	const v = Array.isArray(value) ? value[0] : value;
	return v?.trim() || undefined;
}
