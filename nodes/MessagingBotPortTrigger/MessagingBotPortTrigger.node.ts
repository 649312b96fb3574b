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
import type { StateStore } from '../../runtime/stores/types';
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
		const dispatcher = executionsOf(this, store, scope);
		const receive = receiverOf(this, { store, scope, secrets, listening, options, dispatcher });
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

/** Each execution takes every delivery kept and not yet run; the next starts when it ends. */
function executionsOf(ctx: ITriggerFunctions, store: StateStore, scope: string): Dispatcher {
	return new Dispatcher(
		store,
		scope,
		async (items) => {
			const done = ctx.helpers.createDeferredPromise<IRun>();
			ctx.emit([ctx.helpers.returnJsonArray(items as IDataObject[])], undefined, done);
			await finishedOrAfter(done.promise, EXECUTION_WAIT_MS, sleep);
		},
		(error) => ctx.logger.error(`Messaging Bot Own Port Trigger: ${error.message}`),
	);
}

/**
 * What the port answers a delivery: checked and kept (runtime/webhooks), then run by the
 * dispatcher; while the editor listens, shown at once, and a refusal shown as an error.
 */
function receiverOf(
	ctx: ITriggerFunctions,
	on: {
		store: StateStore;
		scope: string;
		secrets: Awaited<ReturnType<typeof signingSecrets>>;
		listening: boolean;
		options: IDataObject;
		dispatcher: Dispatcher;
	},
) {
	const { store, scope, secrets, listening, options, dispatcher } = on;
	return async (delivery: Parameters<typeof receiveDelivery>[0]): Promise<Answer> => {
		const outcome = await receiveDelivery(delivery, {
			secrets,
			events: ctx.getNodeParameter('events', ['*']) as string[],
			bots: selectedBots(ctx),
			listening,
			passTestEvents: options.passTestEvents === true,
			includeHeaders: options.includeHeaders === true,
			includeRawBody: options.includeRawBody === true,
			scope,
			...scenarioInbox(ctx),
			batch: true,
			store: async () => store,
		});
		if (outcome.kind === 'rejected' && listening)
			ctx.emitError(refusedWhileListening(ctx.getNode(), outcome.status, outcome.body.message));
		if (outcome.kind !== 'accepted') return outcome;
		if (listening)
			ctx.emit([ctx.helpers.returnJsonArray((await outcome.items()) as IDataObject[])]);
		else dispatcher.kick();
		return outcome;
	};
}
