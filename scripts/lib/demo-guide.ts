import { exampleWorkflows, type Workflow } from './demo-setup';
import { DEMO_OWNER } from './n8n-process';

/** What to try on each example bot, by its bot ID. */
const TRY: Record<string, string> = {
	bot_shop: 'try "order", an email, "1001"',
	bot_support: 'try "delivery" or "returns"',
};

/** The bots an example workflow's trigger answers (its Bots filter, by ID). */
export function botsOf(workflow: Workflow): string[] {
	const trigger = workflow.nodes.find(
		(n) => n.type === 'n8n-nodes-messaging-bot.messagingBotTrigger',
	);
	if (trigger?.parameters.botFilter !== 'ids') return [];
	return String(trigger.parameters.botIds ?? '')
		.split(',')
		.map((id) => id.trim())
		.filter(Boolean);
}

export type DemoAddresses = {
	n8nUrl: string;
	baseUrl: string;
	adminUrl: string;
	apiKey: string;
	secret: string;
	/** The Scenario Studio's address, with its token. */
	studioUrl?: string;
	/** The state store file the demo's n8n keeps its conversations and counters in. */
	store?: string;
};

/**
 * What `npm start` prints once everything runs: where things are, the two credentials' values
 * (for a workflow built from scratch), and a curl line to try each example, one per bot.
 */
export function demoGuide(a: DemoAddresses, workflows: Workflow[] = exampleWorkflows()): string[] {
	const inbound = (bot: string) =>
		`  curl -s -X POST ${a.adminUrl}/inbound -H 'Content-Type: application/json' -d '{"bot_id":"${bot}","client_id":"cl_ada","text":"hi"}'`;
	const bots = workflows.flatMap((w) =>
		botsOf(w).flatMap((bot) => [
			`A client writes to ${bot} ("${w.name}" answers; ${TRY[bot] ?? 'try "hi"'}):`,
			inbound(bot),
		]),
	);
	return [
		`n8n editor:   ${a.n8nUrl}`,
		`login:        ${DEMO_OWNER.email} / ${DEMO_OWNER.password}`,
		`emulator:     ${a.baseUrl} (admin API ${a.adminUrl})`,
		`API key:      ${a.apiKey} (Messaging Bot API credential, Base URL ${a.baseUrl})`,
		`secret:       ${a.secret} (Messaging Bot Webhook API credential, Signing Secret)`,
		...(a.studioUrl
			? [
					`studio:       ${a.studioUrl}`,
					`              (the Scenario Studio, on the example scenarios in examples/scenarios${a.store ? ', with the traffic of the store below' : ''})`,
				]
			: []),
		...(a.store
			? [
					`state store:  ${a.store}`,
					`              (the example workflows' conversations and analytics; try: npx messaging-bot-scenario stats --store ${a.store})`,
				]
			: []),
		`workflows:    ${workflows.map((w) => w.name).join('; ')}`,
		'',
		'A client places an order (the workflow tags the client "customer"):',
		`  curl -s -X POST ${a.adminUrl}/events -H 'Content-Type: application/json' -d '{"event":"order.created","data":{"client_id":"cl_grace","order_id":"ord_1","total":25}}'`,
		'Then see the tag:',
		`  curl -s ${a.adminUrl}/clients/cl_grace`,
		'',
		...bots,
		"Then read the bots' replies:",
		`  curl -s '${a.adminUrl}/sent-messages?client_id=cl_ada'`,
		'',
		'Ctrl-C stops everything.',
	];
}
