/* eslint-disable @n8n/community-nodes/require-node-api-error -- the studio server runs in a terminal, never loaded by n8n */
/**
 * Opens and saves the Scenario node of a workflow in a running n8n through n8n's public REST API
 * (`/api/v1`, authorised by an API key made in n8n's Settings > n8n API). The page asks the studio
 * server, which asks n8n, since n8n's API answers no browser page from another origin.
 */

export interface N8nTarget {
	baseUrl: string;
	apiKey: string;
	workflowId: string;
}

interface N8nNode {
	name: string;
	type: string;
	parameters?: Record<string, unknown>;
}

interface N8nWorkflow {
	id: string;
	name: string;
	nodes: N8nNode[];
	connections: unknown;
	settings?: Record<string, unknown>;
	staticData?: unknown;
}

export interface ScenarioNode {
	name: string;
	scenario: string;
}

/** Settings n8n 2.41's public API accepts on PUT (its openapi.yml); it refuses a body with any other key. */
const WRITABLE_SETTINGS = [
	'saveExecutionProgress',
	'saveManualExecutions',
	'saveDataErrorExecution',
	'saveDataSuccessExecution',
	'executionTimeout',
	'errorWorkflow',
	'timezone',
	'executionOrder',
	'binaryMode',
	'callerPolicy',
	'callerIds',
	'timeSavedMode',
	'timeSavedPerExecution',
	'redactionPolicy',
];

const isScenarioNode = (node: N8nNode) => /(^|\.)messagingBotScenario$/.test(node.type);

export async function openWorkflow(
	target: N8nTarget,
): Promise<{ name: string; nodes: ScenarioNode[] }> {
	const workflow = await request<N8nWorkflow>(target, 'GET');
	const nodes = workflow.nodes.filter(isScenarioNode).map((node) => ({
		name: node.name,
		scenario: scenarioText(node.parameters?.scenario),
	}));
	return { name: workflow.name, nodes };
}

/** Replaces one Scenario node's Scenario field; everything else in the workflow is sent back as read. */
export async function saveScenarioNode(
	target: N8nTarget,
	nodeName: string,
	scenario: string,
): Promise<{ name: string }> {
	const workflow = await request<N8nWorkflow>(target, 'GET');
	const node = workflow.nodes.find((n) => n.name === nodeName && isScenarioNode(n));
	if (!node) throw new N8nError(404, `The workflow has no Scenario node named "${nodeName}"`);
	node.parameters = { ...node.parameters, scenario };
	const settings = Object.fromEntries(
		Object.entries(workflow.settings ?? {}).filter(([key]) => WRITABLE_SETTINGS.includes(key)),
	);
	const body = {
		name: workflow.name,
		nodes: workflow.nodes,
		connections: workflow.connections,
		settings,
	};
	await request(target, 'PUT', body);
	return { name: workflow.name };
}

function scenarioText(value: unknown): string {
	if (typeof value === 'string') return value.replace(/^=/, '');
	return JSON.stringify(value ?? {}, null, 2);
}

export class N8nError extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message);
	}
}

async function request<T>(target: N8nTarget, method: string, body?: unknown): Promise<T> {
	let base: URL;
	try {
		base = new URL(target.baseUrl);
	} catch {
		throw new N8nError(400, `n8n URL "${target.baseUrl}" is not a web address`);
	}
	if (!/^\d+$|^[\w-]+$/.test(target.workflowId))
		throw new N8nError(400, 'Workflow ID: letters, digits, "-" and "_" only');
	const url = new URL(`api/v1/workflows/${target.workflowId}`, base.href.replace(/\/?$/, '/'));
	let answer: Response;
	try {
		answer = await fetch(url, {
			method,
			headers: {
				'X-N8N-API-KEY': target.apiKey,
				accept: 'application/json',
				...(body ? { 'content-type': 'application/json' } : {}),
			},
			body: body ? JSON.stringify(body) : undefined,
			signal: AbortSignal.timeout(15_000),
		});
	} catch (error) {
		throw new N8nError(502, `n8n at ${base.origin} cannot be reached: ${(error as Error).message}`);
	}
	const text = await answer.text();
	if (answer.status === 401)
		throw new N8nError(401, 'n8n refused the API key (Settings > n8n API)');
	if (answer.status === 404) throw new N8nError(404, `n8n has no workflow "${target.workflowId}"`);
	// n8n keeps a save it may not publish as a draft, and says which permission is missing.
	if (answer.status === 403 && method === 'PUT')
		throw new N8nError(
			403,
			`n8n kept the change as a draft and did not publish it: ${text.slice(0, 300)}`,
		);
	if (!answer.ok)
		throw new N8nError(
			502,
			`n8n answered ${answer.status}: ${text.slice(0, 300) || answer.statusText}`,
		);
	return JSON.parse(text) as T;
}
