import { exampleWorkflows, type Workflow } from '../../scripts/lib/demo-setup';

/**
 * Workflows for the workflow-step conversations in a real n8n: a bot whose scenario calls the
 * example FAQ lookup, a sub-workflow that fails (Stop and Error) and one slower than the call's
 * time limit (Wait).
 */
const trigger = (name: string) => ({
	id: `${name}-trigger`,
	name: 'When Called',
	type: 'n8n-nodes-base.executeWorkflowTrigger',
	typeVersion: 1.1,
	position: [0, 0],
	parameters: { inputSource: 'passthrough' },
});

export const BROKEN: Workflow = {
	id: 'mbE2eBrokenSub1',
	name: 'e2e: a sub-workflow that fails',
	settings: { executionOrder: 'v1' },
	nodes: [
		trigger('broken'),
		{
			id: 'broken-stop',
			name: 'Fail',
			type: 'n8n-nodes-base.stopAndError',
			typeVersion: 1,
			position: [260, 0],
			parameters: { errorMessage: 'The order system is down' },
		},
	],
	connections: { 'When Called': { main: [[{ node: 'Fail', type: 'main', index: 0 }]] } },
} as unknown as Workflow;

export const SLOW: Workflow = {
	id: 'mbE2eSlowSub001',
	name: 'e2e: a sub-workflow slower than the time limit',
	settings: { executionOrder: 'v1' },
	nodes: [
		trigger('slow'),
		{
			id: 'slow-wait',
			name: 'Wait',
			type: 'n8n-nodes-base.wait',
			typeVersion: 1.1,
			position: [260, 0],
			webhookId: 'e2e-slow-wait',
			parameters: { resume: 'timeInterval', amount: 8, unit: 'seconds' },
		},
	],
	connections: { 'When Called': { main: [[{ node: 'Wait', type: 'main', index: 0 }]] } },
} as unknown as Workflow;

const ask = [
	{ match: { equals: 'fail' }, target: 'fail_call' },
	{ match: { equals: 'slow' }, target: 'slow_call' },
	{ match: { any: true }, target: 'faq_call' },
];
const branches = {
	success: { say: '{{vars.answer}}', target: 'listening' },
	empty: { say: 'No answer.', target: 'listening' },
	failure: { say: 'Lookup failed.', target: 'listening' },
	timeout: { say: 'Lookup timed out.', target: 'listening' },
};
const call = (workflow: string, timeoutSeconds: number) => ({
	call: {
		workflow,
		inputs: { question: '{{message.text}}' },
		timeoutSeconds,
		store: { answer: 'answer' },
		...branches,
	},
});

const CALLS_SCENARIO = {
	id: 'e2e-calls',
	version: 1,
	start: 'welcome',
	workflows: { 'faq-lookup': {}, broken: {}, slow: {} },
	states: {
		welcome: { messages: ['Ask.'], on: ask },
		listening: { on: ask },
		faq_call: call('faq-lookup', 20),
		fail_call: call('broken', 20),
		slow_call: call('slow', 3),
	},
};

/** The FAQ bot of the examples with the scenario above and its three workflows connected. */
export function callsBot(): Workflow {
	const faq = exampleWorkflows().find((w) => w.id === 'mbFaqBot00000001') as Workflow;
	const bot = JSON.parse(JSON.stringify(faq)) as Workflow & {
		nodes: Array<Record<string, unknown>>;
	};
	bot.id = 'mbE2eCallsBot01';
	bot.name = 'e2e: a bot whose scenario calls workflows';
	for (const node of bot.nodes) {
		if (node.type === 'n8n-nodes-messaging-bot.messagingBotTrigger') {
			node.webhookId = 'messaging-bot-e2e-calls';
			// The FAQ example answers bot_support only; this bot answers whichever bot is written to.
			node.parameters = { ...(node.parameters as object), botFilter: 'all' };
		}
		if (node.type !== 'n8n-nodes-messaging-bot.messagingBotScenario') continue;
		const link = (name: string, id: string) => ({
			name,
			workflow: { __rl: true, mode: 'id', value: id },
		});
		node.parameters = {
			...(node.parameters as object),
			scenario: JSON.stringify(CALLS_SCENARIO),
			workflows: {
				workflow: [
					link('faq-lookup', 'mbFaqLookup0001'),
					link('broken', BROKEN.id),
					link('slow', SLOW.id),
				],
			},
		};
	}
	return bot;
}
