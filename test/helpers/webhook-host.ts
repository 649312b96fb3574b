/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: an HTTP host for the trigger, never loaded by n8n */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { WebhookContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IRun,
	IWebhookData,
	IWebhookResponseData,
	INodeType,
} from 'n8n-workflow';

import { additionalDataFor, nodeTypes, runFrom, workflowOf, type TestWorkflow } from './n8n';

export type Execution = { run: IRun; items: Array<Record<string, unknown>> };

/**
 * Serves a workflow's trigger the way n8n's webhook server does: keeps the raw body, calls the
 * node's `webhook()` through n8n-core's WebhookContext, answers on receipt (responseMode
 * onReceived), then runs the workflow through WorkflowExecute with the trigger's items.
 */
export class WebhookHost {
	readonly executions: Execution[] = [];
	private server: Server | undefined;
	private running = new Set<Promise<void>>();
	url = '';

	constructor(
		private readonly workflow: TestWorkflow,
		private credentials: Record<string, ICredentialDataDecryptedObject>,
		private readonly mode: 'webhook' | 'manual' = 'webhook',
	) {}

	setCredentials(credentials: Record<string, ICredentialDataDecryptedObject>): void {
		this.credentials = credentials;
	}

	async start(): Promise<this> {
		// A handler may go on after answering (a batch waits for its window): idle() waits for it.
		this.server = createServer((req, res) => {
			const handling = this.handle(req, res);
			this.running.add(handling);
			void handling.finally(() => this.running.delete(handling));
		});
		await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhook/messaging-bot`;
		return this;
	}

	/** Waits for every started execution to finish. */
	async idle(): Promise<void> {
		while (this.running.size > 0) await Promise.allSettled([...this.running]);
	}

	async stop(): Promise<void> {
		await this.idle();
		this.server?.closeAllConnections();
		await new Promise<void>((resolve) => this.server?.close(() => resolve()));
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const raw = Buffer.concat(chunks);
		// n8n parses JSON bodies and keeps the bytes as rawBody.
		let body: unknown = {};
		try {
			body = JSON.parse(raw.toString('utf8'));
		} catch {
			body = {};
		}
		Object.assign(req, { rawBody: raw, body, params: {}, query: {} });

		const trigger = this.workflow.nodes[0];
		const workflow = workflowOf(this.workflow);
		const additionalData = additionalDataFor(this.workflow, this.credentials);
		Object.assign(additionalData, { httpRequest: req, httpResponse: res });
		const webhookData = {
			httpMethod: 'POST',
			path: 'messaging-bot',
			node: trigger.name,
			webhookDescription: {},
			workflowId: 'test',
		} as unknown as IWebhookData;
		const context = new WebhookContext(
			workflow,
			trigger,
			additionalData,
			this.mode,
			webhookData,
			[],
			null,
		);
		const nodeType = nodeTypes.getByNameAndVersion(trigger.type, trigger.typeVersion) as INodeType;
		let result: IWebhookResponseData;
		try {
			result = await (
				nodeType.webhook as (this: WebhookContext) => Promise<IWebhookResponseData>
			).call(context);
		} catch (error) {
			res.writeHead(500, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify({ message: (error as Error).message }));
			return;
		}
		// As n8n: a node that answered itself still starts the execution it returns.
		if (!result.noWebhookResponse) {
			res.writeHead(200, { 'Content-Type': 'application/json' });
			res.end(
				JSON.stringify(
					result.webhookResponse ??
						(result.workflowData
							? { message: 'Workflow was started' }
							: { message: 'Webhook call received' }),
				),
			);
		}
		if (!result.workflowData) return;
		const items = result.workflowData[0].map((i) => i.json);
		const execution = runFrom(
			this.workflow,
			this.credentials,
			trigger.name,
			result.workflowData,
			'webhook',
		).then((run) => {
			this.executions.push({ run, items });
		});
		this.running.add(execution);
		void execution.finally(() => this.running.delete(execution));
	}
}
