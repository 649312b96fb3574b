/* eslint-disable @n8n/community-nodes/require-node-api-error -- the studio server runs in a terminal, never loaded by n8n */
import {
	N8nError,
	applyScenario,
	hasUnpublishedChanges,
	isPublished,
	putBody,
	scenarioNodes,
	type N8nWorkflow,
	type ScenarioChange,
	type ScenarioNode,
} from './n8n-workflow';

export { N8nError } from './n8n-workflow';

/**
 * Opens and saves the Scenario node of a workflow in a running n8n through n8n's public REST API
 * (`/api/v1`, authorised by an API key made in n8n's Settings > n8n API). The page asks the studio
 * server, which asks n8n, since n8n's API answers no browser page from another origin. The key is
 * sent to n8n only: no answer or message of the studio repeats it.
 */

export interface N8nTarget {
	baseUrl: string;
	apiKey: string;
	/** The workflow's ID, or its address in n8n's editor (…/workflow/<ID>). */
	workflowId: string;
}

export interface OpenedWorkflow {
	id: string;
	name: string;
	published: boolean;
	nodes: ScenarioNode[];
}

export async function openWorkflow(target: N8nTarget): Promise<OpenedWorkflow> {
	const workflow = await request<N8nWorkflow>(target, 'GET');
	return {
		id: workflow.id,
		name: workflow.name,
		published: isPublished(workflow),
		nodes: scenarioNodes(workflow),
	};
}

export interface SavedScenario {
	name: string;
	/** The Scenario nodes written: the one opened, and those that held the same scenario. */
	nodes: string[];
	/** What n8n runs now: the new scenario, or (published workflow) still the published version. */
	outcome: 'saved' | 'published' | 'draft';
	message: string;
}

/**
 * Replaces one Scenario node's Scenario field (and its copies) and sends the workflow back. A
 * published workflow is published again with it, unless it holds changes not yet published
 * from n8n's editor: then the save stays a draft there, for its author to publish.
 */
export async function saveScenarioNode(
	target: N8nTarget,
	change: ScenarioChange,
): Promise<SavedScenario> {
	const workflow = await request<N8nWorkflow>(target, 'GET');
	const nodes = applyScenario(workflow, change);
	const keepDraft = hasUnpublishedChanges(workflow);
	const where = `${workflow.name} › ${nodes.join(', ')}`;
	try {
		await request(target, 'PUT', putBody(workflow), keepDraft ? '?publishIfActive=false' : '');
	} catch (error) {
		// n8n 2.x kept it as a draft (the version it names), and says which permission publishing needs.
		if (error instanceof N8nError && error.status === 403 && error.answer?.versionId)
			return {
				name: workflow.name,
				nodes,
				outcome: 'draft',
				message: `Saved to n8n as a draft (${where}); the published version still runs: ${error.message}`,
			};
		throw error;
	}
	if (!isPublished(workflow))
		return { name: workflow.name, nodes, outcome: 'saved', message: `Saved to n8n: ${where}` };
	if (keepDraft)
		return {
			name: workflow.name,
			nodes,
			outcome: 'draft',
			message: `Saved to n8n as a draft (${where}): the workflow has changes not yet published from n8n's editor, so it was not published; publish it in n8n`,
		};
	return {
		name: workflow.name,
		nodes,
		outcome: 'published',
		message: `Saved to n8n and published: ${where}`,
	};
}

/** A workflow ID, or the ID in an address of n8n's editor (…/workflow/<ID>, …/workflow/<ID>/…). */
export function workflowIdOf(text: string): string {
	const id = /\/workflows?\/([\w-]+)/.exec(text)?.[1] ?? text;
	if (!/^[\w-]+$/.test(id))
		throw new N8nError(
			400,
			'Workflow ID: letters, digits, "-" and "_" only (or the workflow\'s address in n8n)',
		);
	return id;
}

/** A workflow of n8n's list, for a call step to name. */
export interface ListedWorkflow {
	id: string;
	name: string;
	published: boolean;
}

const LIST_PAGES = 5;

/** The workflows the API key can see (n8n's list, 100 a page, the first 500), by name. */
export async function listWorkflows(
	target: Omit<N8nTarget, 'workflowId'>,
): Promise<ListedWorkflow[]> {
	const found: ListedWorkflow[] = [];
	let cursor: string | undefined;
	for (let page = 0; page < LIST_PAGES; page++) {
		const query = new URLSearchParams({ limit: '100', excludePinnedData: 'true' });
		if (cursor) query.set('cursor', cursor);
		const answer = await request<{ data: N8nWorkflow[]; nextCursor?: string | null }>(
			{ ...target, workflowId: '' },
			'GET',
			undefined,
			`?${query.toString()}`,
		).catch((error: unknown) => {
			// n8n's list needs a scope of its own, beside the workflow:read a single workflow needs.
			if (error instanceof N8nError && error.status === 403)
				throw new N8nError(
					403,
					`${error.message} (listing workflows needs the API key's workflow:list scope)`,
				);
			throw error;
		});
		for (const w of answer.data) found.push({ id: w.id, name: w.name, published: isPublished(w) });
		cursor = answer.nextCursor ?? undefined;
		if (!cursor) break;
	}
	return found.sort((a, b) => a.name.localeCompare(b.name));
}

/** The API's address for one workflow, or for the list when the target names none. */
function workflowUrl(target: N8nTarget): URL {
	let base: URL;
	try {
		base = new URL(target.baseUrl);
	} catch {
		throw new N8nError(400, `n8n URL "${target.baseUrl}" is not a web address`);
	}
	if (base.protocol !== 'http:' && base.protocol !== 'https:')
		throw new N8nError(400, 'n8n URL: http:// or https:// only');
	const root = base.href.replace(/\/?$/, '/');
	if (target.workflowId === '') return new URL('api/v1/workflows', root);
	return new URL(`api/v1/workflows/${workflowIdOf(target.workflowId)}`, root);
}

async function request<T>(
	target: N8nTarget,
	method: 'GET' | 'PUT',
	body?: unknown,
	query = '',
): Promise<T> {
	const url = workflowUrl(target);
	let answer: Response;
	try {
		answer = await fetch(`${url.href}${query}`, {
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
		throw new N8nError(502, `n8n at ${url.origin} cannot be reached: ${(error as Error).message}`);
	}
	const text = await answer.text();
	if (answer.ok) return JSON.parse(text) as T;
	let parsed: Record<string, unknown> | undefined;
	try {
		parsed = JSON.parse(text) as Record<string, unknown>;
	} catch {
		// not JSON: its text is the message
	}
	const status = [401, 403, 404].includes(answer.status) ? answer.status : 502;
	const said = String(parsed?.message ?? text.slice(0, 300)) || answer.statusText;
	throw new N8nError(status, refusal(answer.status, said, target), parsed);
}

/** n8n's refusal in words, with n8n's own message; never the key. */
function refusal(status: number, message: string, target: N8nTarget): string {
	const said = message.split(target.apiKey).join('(the API key)');
	if (status === 401)
		return 'n8n refused the API key: make one in n8n (Settings > n8n API) and paste it whole';
	if (status === 404 && target.workflowId === '')
		return "n8n's public API is not at this address (n8n URL: the address you open n8n at)";
	if (status === 404)
		return `n8n has no workflow "${workflowIdOf(target.workflowId)}" (or the API key may not see it)`;
	if (status === 403) return `n8n refused: ${said}`;
	return `n8n answered ${status}: ${said}`;
}
