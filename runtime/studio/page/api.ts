/** The page's calls to its studio server, each with the token of the page's address. */

const token = new URLSearchParams(location.search).get('token') ?? '';

export class ApiError extends Error {}

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
}

export const hasToken = () => token !== '';
export const session = async () =>
	(await call<Session>('GET', '/api/session')) ?? { files: [], traffic: false };
export const readScenarioFile = async (path: string) =>
	(await call<{ path: string; text: string }>('GET', `/api/file?path=${encodeURIComponent(path)}`))
		?.text ?? '';
export const writeScenarioFile = (path: string, text: string) =>
	call('PUT', `/api/file?path=${encodeURIComponent(path)}`, text);
/** Traffic per state and edge, when the studio was given a state store; undefined otherwise. */
export const traffic = () => call<unknown>('GET', '/api/traffic');

export interface N8nTarget {
	baseUrl: string;
	apiKey: string;
	workflowId: string;
}
export const openN8n = async (target: N8nTarget) =>
	(await call<{ name: string; nodes: Array<{ name: string; scenario: string }> }>(
		'POST',
		'/api/n8n/open',
		target,
	)) ?? { name: '', nodes: [] };
export const saveN8n = (target: N8nTarget, nodeName: string, scenario: string) =>
	call('POST', '/api/n8n/save', { ...target, nodeName, scenario });
