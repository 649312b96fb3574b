/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- dev tooling: prepares an n8n user folder, never loaded by n8n */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { seedSqliteDatabase } from './n8n-database';
import { n8nCli, waitForWebhook, type N8nOptions } from './n8n-process';
import { installPackage, packPackage } from './package-install';
import { publishAll } from './n8n-publish';

const root = path.resolve(__dirname, '../..');
const WORKFLOW_DIR = path.join(root, 'examples/workflows');
export const WEBHOOK_CREDENTIAL_ID = 'mbWebhookSecret1';
export const API_CREDENTIAL_ID = 'mbApiCredential1';

export type Workflow = {
	id: string;
	name: string;
	settings?: Record<string, unknown>;
	nodes: Array<{ type: string; webhookId?: string; parameters: Record<string, unknown> }>;
};

export function exampleWorkflows(): Workflow[] {
	return readdirSync(WORKFLOW_DIR)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((f) => JSON.parse(readFileSync(path.join(WORKFLOW_DIR, f), 'utf8')) as Workflow);
}

/**
 * A workflow that keeps its successful executions: the order-status example keeps only failed
 * ones (so its scheduled runs do not fill the list); tests that count executions need them all.
 */
export function keepingEveryExecution(workflow: Workflow): Workflow {
	return { ...workflow, settings: { ...workflow.settings, saveDataSuccessExecution: 'all' } };
}

/** The production URL of a workflow's Messaging Bot Trigger. */
export function productionUrl(n8nUrl: string, workflow: Workflow): string {
	const trigger = workflow.nodes.find(
		(n) => n.type === 'n8n-nodes-messaging-bot.messagingBotTrigger',
	);
	if (!trigger?.webhookId) throw new Error(`${workflow.name} has no Messaging Bot Trigger`);
	return `${n8nUrl}/webhook/${trigger.webhookId}/messaging-bot`;
}

/**
 * Subscribes the emulator to every example workflow that starts with a Messaging Bot Trigger, once
 * n8n has registered its webhook, for the events the trigger listens to. Workflows started another
 * way (a sub-workflow called by a scenario) are left alone.
 */
export async function subscribeExamples(
	n8nUrl: string,
	emulatorAdminUrl: string,
	secret: string,
): Promise<void> {
	for (const workflow of exampleWorkflows()) {
		const trigger = workflow.nodes.find(
			(n) => n.type === 'n8n-nodes-messaging-bot.messagingBotTrigger',
		);
		if (!trigger) continue;
		const url = productionUrl(n8nUrl, workflow);
		await waitForWebhook(url);
		const events = (trigger.parameters.events as string[] | undefined) ?? ['*'];
		const res = await fetch(`${emulatorAdminUrl}/subscriptions`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ url, secret, events }),
		});
		if (!res.ok) throw new Error(`subscribing ${workflow.name} failed: ${await res.text()}`);
	}
}

/** The Messaging Bot API credential's settings; `extra` for any other field of it. */
export type ApiSettings = {
	baseUrl: string;
	apiKey: string;
	rateLimit?: number;
	rateWindowSeconds?: number;
	extra?: Record<string, unknown>;
};

/**
 * Installs the packed package into the user folder, imports the two credentials and the example
 * workflows, and publishes them; n8n must not be running.
 */
export function prepareN8n(
	o: N8nOptions,
	api: ApiSettings,
	webhookSecret: string,
	workflows: Workflow[] = exampleWorkflows(),
	extraCredentials: Array<{ id: string; name: string; type: string; data: object }> = [],
): void {
	installPackage(o.userFolder, packPackage());
	seedSqliteDatabase(o);
	const credentials = [
		{
			id: API_CREDENTIAL_ID,
			name: 'Messaging Bot API',
			type: 'messagingBotApi',
			data: {
				baseUrl: api.baseUrl,
				apiKey: api.apiKey,
				authHeader: 'bearer',
				rateLimit: api.rateLimit ?? 100,
				rateWindowSeconds: api.rateWindowSeconds ?? 60,
				...api.extra,
			},
		},
		{
			id: WEBHOOK_CREDENTIAL_ID,
			name: 'Messaging Bot Webhook',
			type: 'messagingBotWebhookApi',
			data: { secret: webhookSecret, previousSecret: '' },
		},
	];
	const credentialsFile = path.join(o.userFolder, 'credentials.json');
	writeFileSync(credentialsFile, JSON.stringify([...credentials, ...extraCredentials]));
	n8nCli(o, ['import:credentials', `--input=${credentialsFile}`]);
	const workflowsFile = path.join(o.userFolder, 'workflows.json');
	writeFileSync(workflowsFile, JSON.stringify(workflows));
	n8nCli(o, ['import:workflow', `--input=${workflowsFile}`]);
	// n8n 1.x activates each workflow (it has no publish command); n8n 2.x publishes them all in
	// one statement, as its `publish:workflow` does one by one (a CLI start each, 5 to 20 s).
	if (o.n8nVersion?.startsWith('1.') ?? false)
		for (const workflow of workflows)
			n8nCli(o, ['update:workflow', `--id=${workflow.id}`, '--active=true']);
	else
		publishAll(
			o,
			workflows.map((w) => w.id),
		);
}
