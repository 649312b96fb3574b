import type {
	MovePlan,
	MovePreview,
	MoveReport,
	ScenarioDocument,
	SplitTestReport,
	Traffic,
	VersionFunnel,
	VersionWithStates,
} from './runtime-bridge';

/** The page's calls to its studio server, each with the token of the page's address. */

const token = new URLSearchParams(location.search).get('token') ?? '';

class ApiError extends Error {}

async function call<T>(method: string, url: string, body?: unknown): Promise<T | undefined> {
	const answer = await fetch(url, {
		method,
		headers: {
			'x-studio-token': token,
			...(body === undefined ? {} : { 'content-type': 'application/json' }),
		},
		body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
	});
	if (answer.status === 204) return undefined;
	const payload = (await answer.json()) as T & { error?: string };
	if (!answer.ok)
		throw new ApiError(payload.error ?? `The studio server answered ${answer.status}`);
	return payload;
}

export interface Session {
	files: string[];
	traffic: boolean;
	/** Whether the store's versions can be listed, rolled back to and moved between. */
	versions?: boolean;
	/** The folder whose .json files the studio opens, saves and creates. */
	root?: string;
}

export const hasToken = () => token !== '';
export const session = async () =>
	(await call<Session>('GET', '/api/session')) ?? { files: [], traffic: false };
/** The file's text; undefined for a path with no file yet (created on its first save). */
export const readScenarioFile = async (path: string, what: 'file' | 'layout' = 'file') =>
	(
		await call<{ path: string; text?: string }>(
			'GET',
			`/api/${what}?path=${encodeURIComponent(path)}`,
		)
	)?.text;
export const writeScenarioFile = (path: string, text: string, what: 'file' | 'layout' = 'file') =>
	call<{ path: string }>('PUT', `/api/${what}?path=${encodeURIComponent(path)}`, text);
/** The scenario files inside the studio's folder, relative to it. */
export const folderFiles = async () =>
	(await call<{ root?: string; files: string[] }>('GET', '/api/files')) ?? { files: [] };
/** A period's traffic per state and edge, when the studio was given a state store; undefined otherwise. */
export const traffic = (scenario: string, from: string, to: string) =>
	call<Traffic & { from: string; to: string }>(
		'GET',
		`/api/traffic?${new URLSearchParams({ scenario, from, to }).toString()}`,
	);

/** A period's funnel, each version of the scenario apart (the reading Get Analytics makes). */
export const funnel = (scenario: string, from: string, to: string) =>
	call<{ from: string; to: string; versions: VersionFunnel[]; splits: SplitTestReport[] }>(
		'GET',
		`/api/funnel?${new URLSearchParams({ scenario, from, to }).toString()}`,
	);

/** The versions of the scenario being edited (sent as `scenario`) the store has seen, with their states. */
export const versions = async (scenario: string) =>
	(await call<{ versions: VersionWithStates[] }>('POST', '/api/versions/list', { scenario }))
		?.versions ?? [];
/** Version N's content as the store kept it, numbered as a new version. */
export const rolledBack = async (scenario: string, version: number) =>
	(
		await call<{ document: ScenarioDocument }>('POST', '/api/versions/rollback', {
			scenario,
			version,
		})
	)?.document;
/** Where a Move would put each live conversation of a version (nothing written). */
export const previewMove = (scenario: string, plan: MovePlan) =>
	call<MovePreview>('POST', '/api/versions/preview', { scenario, plan });
export const applyMove = (scenario: string, plan: MovePlan) =>
	call<MoveReport>('POST', '/api/versions/move', { scenario, plan });

export interface N8nTarget {
	baseUrl: string;
	apiKey: string;
	/** The workflow's ID, or its address in n8n's editor. */
	workflowId: string;
}
interface N8nScenarioNode {
	name: string;
	operation: string;
	/** Absent when the node's field holds no scenario the studio can open (`problem` says why). */
	scenario?: string;
	problem?: string;
}
export interface N8nWorkflow {
	id: string;
	name: string;
	published: boolean;
	nodes: N8nScenarioNode[];
}
export const openN8n = async (target: N8nTarget) =>
	(await call<N8nWorkflow>('POST', '/api/n8n/open', target)) ?? {
		id: '',
		name: '',
		published: false,
		nodes: [],
	};
/** Writes the scenario if the node still holds `baseline` (the scenario as opened or last saved). */
export const saveN8n = async (
	target: N8nTarget,
	change: { nodeName: string; scenario: string; baseline: string },
) =>
	(
		await call<{ message: string; nodes: string[] }>('POST', '/api/n8n/save', {
			...target,
			...change,
		})
	)?.message;
/** The workflows of an n8n the API key can see, by name (for a call step to name one). */
export const n8nWorkflows = async (target: Omit<N8nTarget, 'workflowId'>) =>
	(
		await call<{ workflows: Array<{ id: string; name: string; published: boolean }> }>(
			'POST',
			'/api/n8n/workflows',
			target,
		)
	)?.workflows ?? [];
