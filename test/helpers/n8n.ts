import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import {
	ICredentialsHelper,
	NodeConnectionTypes,
	Workflow,
	type ICredentialDataDecryptedObject,
	type ICredentials,
	type ICredentialType,
	type IDataObject,
	type IExecuteFunctions,
	type IHttpRequestOptions,
	type INode,
	type INodeExecutionData,
	type INodeType,
	type INodeTypes,
	type IVersionedNodeType,
	type INodeTypeDescription,
	type IRun,
	type IRunExecutionData,
	type IWorkflowBase,
	type IWorkflowExecuteAdditionalData,
	type IConnections,
} from 'n8n-workflow';

import { MessagingBotApi } from '../../credentials/MessagingBotApi.credentials';
import { MessagingBotWebhookApi } from '../../credentials/MessagingBotWebhookApi.credentials';
import { MessagingBot } from '../../nodes/MessagingBot/MessagingBot.node';
import { MessagingBotScenario } from '../../nodes/MessagingBotScenario/MessagingBotScenario.node';
import { MessagingBotTrigger } from '../../nodes/MessagingBotTrigger/MessagingBotTrigger.node';

/**
 * Input for a test workflow: emits the items in its `items` parameter (a JSON array). It stands
 * where a trigger or an upstream node would be; the node under test is always the real one.
 */
class TestItems implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Test Items',
		name: 'testItems',
		group: ['input'],
		version: 1,
		description: 'Emits fixed items',
		defaults: { name: 'Test Items' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getNodeParameter('items', 0) as IDataObject[] | string;
		const list = (typeof items === 'string' ? JSON.parse(items) : items) as IDataObject[];
		return [
			list.map((json, i) => ({
				json,
				pairedItem: { item: Math.min(i, this.getInputData().length - 1) },
			})),
		];
	}
}

const nodeClasses: Record<string, INodeType | IVersionedNodeType> = {
	'n8n-nodes-messaging-bot.messagingBot': new MessagingBot(),
	'n8n-nodes-messaging-bot.messagingBotTrigger': new MessagingBotTrigger(),
	'n8n-nodes-messaging-bot.messagingBotScenario': new MessagingBotScenario(),
	'test.items': new TestItems(),
};
const credentialClasses: Record<string, ICredentialType> = {
	messagingBotApi: new MessagingBotApi(),
	messagingBotWebhookApi: new MessagingBotWebhookApi(),
};

export function registerNodeType(type: string, node: INodeType | IVersionedNodeType): void {
	nodeClasses[type] = node;
}

const subWorkflows = new Map<string, TestWorkflow>();
/** A workflow other workflows may run by this id (executeWorkflow); its last node answers. */
export function registerSubWorkflow(id: string, workflow: TestWorkflow): void {
	subWorkflows.set(id, workflow);
}

export const nodeTypes: INodeTypes = {
	getByName: (type) => nodeClasses[type],
	getByNameAndVersion: (type, version) => {
		const node = nodeClasses[type];
		if (!node) throw new Error(`Unknown node type ${type}: register it in test/helpers/n8n.ts`);
		return 'nodeVersions' in node ? node.getNodeType(version) : node;
	},
	getKnownTypes: () => ({}),
};

const reads = new Map<string, number>();

/** How many times nodes read (n8n decrypted) a credential of this type so far, in this process. */
export function credentialReads(type: string): number {
	return reads.get(type) ?? 0;
}

/** Credentials as n8n's would be after decryption; authentication by the real credential class. */
class TestCredentialsHelper extends ICredentialsHelper {
	constructor(private readonly data: Record<string, ICredentialDataDecryptedObject>) {
		super();
	}
	getParentTypes(): string[] {
		return [];
	}
	isCredentialUsableByNode(): boolean {
		return true;
	}
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const type = credentialClasses[typeName];
		if (typeof type?.authenticate === 'function')
			return await type.authenticate(credentials, requestOptions);
		return requestOptions;
	}
	async preAuthentication(): Promise<undefined> {
		return undefined;
	}
	async runPreAuthentication(): Promise<undefined> {
		return undefined;
	}
	async getCredentials(): Promise<ICredentials> {
		throw new Error('not used by these nodes');
	}
	async getDecrypted(
		_a: unknown,
		_n: unknown,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		reads.set(type, credentialReads(type) + 1);
		const found = this.data[type];
		if (!found) throw new Error(`No test credentials of type ${type}`);
		return found;
	}
	async updateCredentials(): Promise<void> {}
	async updateCredentialsOauthTokenData(): Promise<void> {}
	getCredentialsProperties() {
		return credentialClasses.messagingBotApi.properties;
	}
}

export type TestWorkflow = { nodes: INode[]; connections: IConnections };

export function workflowOf(workflow: TestWorkflow): Workflow {
	return new Workflow({
		id: 'test',
		nodes: workflow.nodes,
		connections: workflow.connections,
		nodeTypes,
		active: false,
	});
}

/** What n8n hands the execution engine and node contexts; real hooks, real credential classes. */
export function additionalDataFor(
	workflow: TestWorkflow,
	credentials: Record<string, ICredentialDataDecryptedObject>,
	onFinished: (run: IRun) => void = () => {},
): IWorkflowExecuteAdditionalData {
	const workflowData: IWorkflowBase = {
		id: 'test',
		name: 'test',
		active: false,
		isArchived: false,
		nodes: workflow.nodes,
		connections: workflow.connections,
		createdAt: new Date(),
		updatedAt: new Date(),
		activeVersionId: null,
	};
	const hooks = new ExecutionLifecycleHooks('manual', 'test-execution', workflowData);
	hooks.addHandler('workflowExecuteAfter', (run) => onFinished(run));
	return {
		hooks,
		credentialsHelper: new TestCredentialsHelper(credentials),
		// A sub-workflow runs through WorkflowExecute as in n8n; its last node's output is its result.
		executeWorkflow: async (
			info: { id?: string },
			_data: unknown,
			options: { inputData?: INodeExecutionData[] },
		) => {
			const sub = info.id === undefined ? undefined : subWorkflows.get(info.id);
			if (!sub) throw new Error(`No sub-workflow "${info.id}" is registered for this test`);
			const run = await runFrom(sub, credentials, sub.nodes[0].name, [options.inputData ?? []]);
			const failed = run.data.resultData.error;
			if (failed) throw failed;
			return {
				executionId: `sub-${info.id}`,
				data: [outputOf(run, sub.nodes[sub.nodes.length - 1].name)],
			};
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678/',
		formBaseUrl: 'http://localhost:5678/form',
		formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
		formTestBaseUrl: 'http://localhost:5678/form-test',
		webhookBaseUrl: 'http://localhost:5678/webhook',
		webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
		mcpBaseUrl: 'http://localhost:5678/mcp',
		mcpTestBaseUrl: 'http://localhost:5678/mcp-test',
		variables: {},
	} as unknown as IWorkflowExecuteAdditionalData;
}

/**
 * Runs a workflow through n8n-core's WorkflowExecute from `startNode`, which receives `items`
 * (a trigger's output passes straight through, as in n8n), and waits for the end.
 */
export async function runFrom(
	workflow: TestWorkflow,
	credentials: Record<string, ICredentialDataDecryptedObject>,
	startNode: string,
	items: INodeExecutionData[][] = [[{ json: {} }]],
	mode: 'manual' | 'webhook' = 'manual',
): Promise<IRun> {
	const instance = workflowOf(workflow);
	let resolveRun: (run: IRun) => void = () => {};
	const finished = new Promise<IRun>((resolve) => (resolveRun = resolve));
	const additionalData = additionalDataFor(workflow, credentials, (run) => resolveRun(run));
	const start = instance.getNode(startNode) as INode;
	const runData = {
		version: 1,
		resultData: { runData: {} },
		executionData: {
			contextData: {},
			metadata: {},
			nodeExecutionStack: [{ node: start, data: { main: items }, source: null }],
			waitingExecution: {},
			waitingExecutionSource: {},
		},
	} as unknown as IRunExecutionData;
	// If the engine fails before its end hook, fail too instead of waiting for a hook that never comes.
	const execution = new WorkflowExecute(additionalData, mode, runData).processRunExecutionData(
		instance,
	);
	return await Promise.race([finished, execution.then(() => finished)]);
}

/** Runs a workflow from its first node. */
export async function runWorkflow(
	workflow: TestWorkflow,
	credentials: Record<string, ICredentialDataDecryptedObject>,
): Promise<IRun> {
	return await runFrom(workflow, credentials, workflow.nodes[0].name);
}

/** The output items of a node in a finished run (first run, first output). */
export function outputOf(run: IRun, nodeName: string): INodeExecutionData[] {
	const task = run.data.resultData.runData[nodeName]?.[0];
	if (!task)
		throw new Error(
			`Node "${nodeName}" did not run; run error: ${run.data.resultData.error?.message}`,
		);
	return task.data?.main[0] ?? [];
}
