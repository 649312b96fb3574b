/**
 * What a designer does in n8n before the studio can reach it, done the way n8n's own editor does
 * it: an API key made through the REST endpoint behind Settings > n8n API (the owner logged in),
 * and the public API read back to see what the studio wrote.
 */

/** Makes an API key for the logged-in owner with these scopes; returns the key (shown once). */
export async function makeApiKey(
	n8nUrl: string,
	cookie: string,
	scopes: string[],
): Promise<string> {
	const answer = await fetch(`${n8nUrl}/rest/api-keys`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', cookie },
		body: JSON.stringify({ label: `studio ${scopes.length} scopes`, scopes, expiresAt: null }),
	});
	const text = await answer.text();
	if (!answer.ok) throw new Error(`n8n did not make an API key: ${answer.status} ${text}`);
	const key = (JSON.parse(text) as { data?: { rawApiKey?: string } }).data?.rawApiKey;
	if (!key) throw new Error('n8n made an API key but did not return it');
	return key;
}

export interface PublicWorkflow {
	id: string;
	name: string;
	versionId: string;
	activeVersionId: string | null;
	nodes: Array<{ name: string; type: string; parameters: Record<string, unknown> }>;
	activeVersion?: { versionId: string; nodes: PublicWorkflow['nodes'] } | null;
	settings: Record<string, unknown>;
}

/** The workflow as n8n's public API returns it. */
export async function readWorkflow(
	n8nUrl: string,
	apiKey: string,
	id: string,
): Promise<PublicWorkflow> {
	const answer = await fetch(`${n8nUrl}/api/v1/workflows/${id}`, {
		headers: { 'X-N8N-API-KEY': apiKey, accept: 'application/json' },
	});
	if (!answer.ok) throw new Error(`GET workflow ${id}: ${answer.status} ${await answer.text()}`);
	return (await answer.json()) as PublicWorkflow;
}

/** A node's Scenario field, parsed. */
export function scenarioOf(
	nodes: PublicWorkflow['nodes'],
	name: string,
): { id: string; version: number; states: Record<string, { messages?: string[] }> } {
	const node = nodes.find((n) => n.name === name);
	if (!node) throw new Error(`No node "${name}"`);
	return JSON.parse(String(node.parameters.scenario).replace(/^=/, '')) as ReturnType<
		typeof scenarioOf
	>;
}
