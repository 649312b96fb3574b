import {
	NodeConnectionTypes,
	NodeOperationError,
	sleep,
	type IDataObject,
	type INodeType,
	type INodeTypeDescription,
	type IRun,
	type ITriggerFunctions,
	type ITriggerResponse,
} from 'n8n-workflow';

import {
	Dispatcher,
	finishedOrAfter,
	receiveDelivery,
	startListener,
	type Answer,
} from '../../runtime/webhooks';
import {
	deliveryOptionsProperty,
	eventsProperty,
	checkSigningSecrets,
	refusedWhileListening,
	signingSecrets,
	triggerSubtitle,
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
import { listenerLimits, listenerLimitsProperty } from './listenerLimits';

/** How long one execution may keep the next from starting (it is started anyway after). */
const EXECUTION_WAIT_MS = 120_000;

export class MessagingBotPortTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Messaging Bot Own Port Trigger',
		name: 'messagingBotPortTrigger',
		icon: {
			light: 'file:messagingBotPortTrigger.svg',
			dark: 'file:messagingBotPortTrigger.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: triggerSubtitle,
		description:
			"Receives the service's events on a port of its own, answering within milliseconds whatever the burst",
		defaults: { name: 'Messaging Bot Own Port Trigger' },
		// Used as is by the editor's Docs link (the codex URL would get tracking added after the anchor).
		documentationUrl: DOCS.portTrigger,
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
		properties: [
			{
				displayName:
					"This trigger listens on its own port instead of n8n's webhook URL, so bursts of hundreds of events are answered at once. In the service dashboard, add a subscription to <b>http(s)://&lt;this n8n's host&gt;:&lt;Port&gt;&lt;Path&gt;</b> (expose the port as you expose n8n). In queue mode it runs in the main process. While listening in the editor, the test event the service sends when a subscription is saved is acknowledged and does not end listening (unless the option Pass Test Events is on), and a delivery with a wrong signature shows its error here.",
				name: 'setupNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Port',
				name: 'port',
				type: 'number',
				default: 5690,
				typeOptions: { minValue: 1, maxValue: 65535 },
				description: 'The port the service posts events to; one per active workflow',
			},
			{
				displayName: 'Path',
				name: 'path',
				type: 'string',
				default: '/messaging-bot',
				description: 'The path the service posts events to',
			},
			{
				displayName: 'Listen Address',
				name: 'host',
				type: 'string',
				default: '0.0.0.0',
				description: 'The network address to listen on; 127.0.0.1 accepts only this machine',
			},
			eventsProperty,
			...botFilterProperties,
			stateStoreProperty('the delivery IDs already seen (48 hours) and the deliveries waiting'),
			deliveryOptionsProperty,
			listenerLimitsProperty,
		],
	};

	methods = {
		credentialTest: { messagingBotPostgresPing, messagingBotRedisPing, messagingBotWebhookSecrets },
		loadOptions: { getBots },
	};

	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		const options = this.getNodeParameter('options', {}) as IDataObject;
		await checkSigningSecrets(this);
		const secrets = await signingSecrets(this);
		const scope = this.getWorkflow().id ?? 'workflow';
		const listening = this.getMode() === 'manual';
		const store = await nodeStateStore(
			this,
			this.getNodeParameter('stateStore', 'sqlite') as string,
			options.statePath,
			options.refuseLossyRedis,
		);
		// Each execution takes every delivery kept and not yet run; the next starts when it ends.
		const dispatcher = new Dispatcher(
			store,
			scope,
			async (items) => {
				const done = this.helpers.createDeferredPromise<IRun>();
				this.emit([this.helpers.returnJsonArray(items as IDataObject[])], undefined, done);
				await finishedOrAfter(done.promise, EXECUTION_WAIT_MS, sleep);
			},
			(error) => this.logger.error(`Messaging Bot Own Port Trigger: ${error.message}`),
		);
		const receive = async (delivery: Parameters<typeof receiveDelivery>[0]): Promise<Answer> => {
			const outcome = await receiveDelivery(delivery, {
				secrets,
				events: this.getNodeParameter('events', ['*']) as string[],
				bots: selectedBots(this),
				listening,
				passTestEvents: options.passTestEvents === true,
				includeHeaders: options.includeHeaders === true,
				includeRawBody: options.includeRawBody === true,
				scope,
				...scenarioInbox(this),
				batch: true,
				store: async () => store,
			});
			if (outcome.kind === 'rejected' && listening)
				this.emitError(refusedWhileListening(this.getNode(), outcome.status, outcome.body.message));
			if (outcome.kind !== 'accepted') return outcome;
			if (listening)
				this.emit([this.helpers.returnJsonArray((await outcome.items()) as IDataObject[])]);
			else dispatcher.kick();
			return outcome;
		};
		const port = this.getNodeParameter('port', 5690) as number;
		const listener = await startListener({
			port,
			host: this.getNodeParameter('host', '0.0.0.0') as string,
			path: normalisePath(this.getNodeParameter('path', '/messaging-bot') as string),
			receive,
			log: (message) => this.logger.error(`Messaging Bot Own Port Trigger: ${message}`),
			limits: listenerLimits(this.getNodeParameter('limits', {}) as IDataObject),
		}).catch((error: Error) => {
			throw new NodeOperationError(
				this.getNode(),
				`Could not listen on port ${port}: ${error.message}`,
				{ description: "Pick a free port, one per active workflow, and not n8n's own." },
			);
		});
		// Deliveries kept before a restart or a kill start again now.
		if (!listening) dispatcher.kick();
		return { closeFunction: async () => await listener.close() };
	}
}

function normalisePath(path: string): string {
	const trimmed = path.trim() || '/messaging-bot';
	return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}
