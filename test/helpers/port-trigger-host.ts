import { TriggerContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	IRun,
	ITriggerResponse,
} from 'n8n-workflow';

import { MessagingBotPortTrigger } from '../../nodes/MessagingBotPortTrigger/MessagingBotPortTrigger.node';
import { additionalDataFor, registerNodeType, workflowOf, type TestWorkflow } from './n8n';

const portTrigger = new MessagingBotPortTrigger();
registerNodeType('n8n-nodes-messaging-bot.messagingBotPortTrigger', portTrigger);

/**
 * Runs the Messaging Bot Own Port Trigger's `trigger()` through n8n-core's TriggerContext, as n8n
 * does when a workflow is activated ('trigger') or listened to in the editor ('manual'); what it
 * emits, and the errors it shows, are collected.
 */
export class PortTriggerHost {
	readonly emitted: Array<Array<Record<string, unknown>>> = [];
	readonly errors: Error[] = [];
	private response: ITriggerResponse | undefined;

	constructor(
		private readonly node: INode,
		private readonly credentials: Record<string, ICredentialDataDecryptedObject>,
		private readonly mode: 'trigger' | 'manual' = 'trigger',
	) {}

	async start(): Promise<this> {
		const workflow: TestWorkflow = { nodes: [this.node], connections: {} };
		const context = new TriggerContext(
			workflowOf(workflow),
			this.node,
			additionalDataFor(workflow, this.credentials),
			this.mode,
			this.mode === 'manual' ? 'manual' : 'activate',
			(
				data: INodeExecutionData[][],
				_response?: unknown,
				done?: { resolve: (run: IRun) => void },
			) => {
				this.emitted.push(data[0].map((i) => i.json as IDataObject));
				// No workflow runs after the trigger here: its execution is over at once.
				done?.resolve({} as IRun);
			},
			(error: Error) => {
				this.errors.push(error);
			},
		);
		this.response = await portTrigger.trigger.call(context);
		return this;
	}

	async stop(): Promise<void> {
		await this.response?.closeFunction?.();
	}
}
