/* eslint-disable @n8n/community-nodes/no-restricted-globals -- end-to-end tooling: timers for a burst, never loaded by n8n */
import {
	API_CREDENTIAL_ID,
	WEBHOOK_CREDENTIAL_ID,
	type Workflow,
} from '../../scripts/lib/demo-setup';
import { conversationScope } from '../../runtime/scenarios/engine/scope';
import type { RunningEmulator } from '../emulator';
import { admin } from '../helpers/emulator';
import { sleep } from './burst-verdict';

export * from './burst-verdict';

/**
 * A burst of clients writing to a bot while n8n is killed, and the checks that every accepted
 * message was handled once, in order: shared by the regular and the queue-mode kill tests.
 */

const STATES = 30;

/** One state per message: state k answers "s<k> got <text>", so the transcript shows each step. */
export function stepsScenario(): string {
	const states: Record<string, unknown> = {};
	for (let k = 0; k < STATES; k++) {
		states[`s${k}`] = {
			messages: [`s${k} got {{message.text}}`],
			on: [{ match: { any: true }, target: `s${Math.min(k + 1, STATES - 1)}` }],
		};
	}
	return JSON.stringify({ id: 'steps', version: 1, start: 's0', states });
}

const BURST_WORKFLOW_ID = 'mbKillBurst00001';
/** Where the store keeps the burst's conversations: its scenario's. */
export const BURST_SCOPE = conversationScope('steps');
const BURST_HOOK = 'messaging-bot-burst';

/**
 * Trigger → Scenario, and a Schedule Trigger every 5 s → Run Due Work. Late Messages "apply"
 * unless `options` say otherwise (`{}`: the node's defaults). The trigger takes deliveries at n8n's
 * webhook URL, or with `ownPort` on a port of its own (the Own Port Trigger).
 */
export function burstWorkflow(
	nodeExtras: Record<string, unknown> = {},
	options: Record<string, unknown> = { latePolicy: 'apply' },
	ownPort?: number,
): Workflow {
	const scenario = stepsScenario();
	const credentials = { messagingBotApi: { id: API_CREDENTIAL_ID, name: 'Messaging Bot API' } };
	const webhookCredential = {
		messagingBotWebhookApi: { id: WEBHOOK_CREDENTIAL_ID, name: 'Messaging Bot Webhook' },
	};
	const trigger =
		ownPort === undefined
			? {
					type: 'n8n-nodes-messaging-bot.messagingBotTrigger',
					webhookId: BURST_HOOK,
					parameters: { events: ['message.received'], options: {} },
				}
			: {
					type: 'n8n-nodes-messaging-bot.messagingBotPortTrigger',
					parameters: {
						port: ownPort,
						host: '127.0.0.1',
						events: ['message.received'],
						options: {},
					},
				};
	const nodes = [
		{
			id: 'b0000000-0000-4000-8000-000000000001',
			name: 'Client Writes',
			typeVersion: 1,
			position: [0, 0],
			...trigger,
			credentials: webhookCredential,
		},
		{
			id: 'b0000000-0000-4000-8000-000000000002',
			name: 'Steps',
			type: 'n8n-nodes-messaging-bot.messagingBotScenario',
			typeVersion: 1,
			position: [260, 0],
			parameters: { operation: 'handleMessage', scenario, options },
			credentials,
		},
		{
			id: 'b0000000-0000-4000-8000-000000000003',
			name: 'Every 5 Seconds',
			type: 'n8n-nodes-base.scheduleTrigger',
			typeVersion: 1.2,
			position: [0, 260],
			parameters: { rule: { interval: [{ field: 'seconds', secondsInterval: 5 }] } },
		},
		{
			id: 'b0000000-0000-4000-8000-000000000004',
			name: 'Run Due Work',
			type: 'n8n-nodes-messaging-bot.messagingBotScenario',
			typeVersion: 1,
			position: [260, 260],
			parameters: { operation: 'fireTimers', scenario, options },
			credentials,
		},
	].map((node) =>
		node.type.startsWith('n8n-nodes-messaging-bot.') ? { ...node, ...nodeExtras } : node,
	);
	return {
		id: BURST_WORKFLOW_ID,
		name: 'Burst and kill',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes,
		connections: {
			'Client Writes': { main: [[{ node: 'Steps', type: 'main', index: 0 }]] },
			'Every 5 Seconds': { main: [[{ node: 'Run Due Work', type: 'main', index: 0 }]] },
		},
	} as unknown as Workflow;
}

/**
 * The service's side of a kill test: the request limit scaled to a second (so 1,000 replies take
 * seconds, not ten minutes), the retry schedule shortened (so a delivery failed by a kill comes
 * back within the test), and 50 clients. Returns the client ids.
 */
export async function prepareBurstEmulator(
	emulator: RunningEmulator,
	retryDelaysMs = [4000, 10_000, 20_000],
): Promise<string[]> {
	await admin(emulator, 'POST', '/config', {
		rate_limit: 100,
		rate_window_ms: 1000,
		retry_delays_ms: retryDelaysMs,
	});
	const { body } = await admin<{ ids: string[] }>(emulator, 'POST', '/clients', { count: 45 });
	return ['cl_ada', 'cl_grace', 'cl_alan', 'cl_katherine', 'cl_linus', ...body.data.ids];
}

export type BurstPlan = {
	clients: number;
	perClient: number;
	/** Time between one client's messages (ms), before jitter. */
	gapMs: number;
	/** Share of messages whose delivery is sent again by hand, as a redelivered copy. */
	copies: number;
};

/** 50 clients writing 20 messages each (MB_KILL_CLIENTS, MB_KILL_PER_CLIENT run a smaller one). */
export function killPlan(gapMs: number): BurstPlan {
	return {
		clients: Number(process.env.MB_KILL_CLIENTS ?? 50),
		perClient: Number(process.env.MB_KILL_PER_CLIENT ?? 20),
		gapMs,
		copies: 0.1,
	};
}

export type BurstLog = {
	copiesAnswered: number[];
	copiesFailed: number;
	/** Client messages the emulator did not take at once (status or error), each written again. */
	inboundRetried: string[];
};

/** The service's side: clients write, each message delivered (and some copied) to n8n. */
export async function runBurst(
	emulator: RunningEmulator,
	url: () => string,
	clientIds: string[],
	plan: BurstPlan,
): Promise<BurstLog> {
	const log: BurstLog = { copiesAnswered: [], copiesFailed: 0, inboundRetried: [] };
	const copies: Array<Promise<void>> = [];
	await Promise.all(
		clientIds.slice(0, plan.clients).map(async (clientId) => {
			await sleep(Math.random() * plan.gapMs);
			for (let i = 1; i <= plan.perClient; i++) {
				const body = await writeInbound(emulator, clientId, i, log);
				if (Math.random() < plan.copies)
					copies.push(copyLater(emulator, url, body.data.delivery_ids[0], log));
				await sleep(plan.gapMs + Math.random() * 300);
			}
		}),
	);
	await Promise.all(copies);
	return log;
}

/**
 * A client's message written at the emulator, which must take it: a message it did not take was
 * never sent, and a run that went on would count it against n8n. Written again on an error
 * (kept in the log; a connection the emulator closed as it was reused fails the call): the
 * emulator takes a message id once, so a retry of one it did take changes nothing. The run
 * stops if it still is not taken.
 */
async function writeInbound(
	emulator: RunningEmulator,
	clientId: string,
	i: number,
	log: BurstLog,
): Promise<{ data: { delivery_ids: string[] } }> {
	const message = {
		bot_id: 'bot_shop',
		client_id: clientId,
		text: `m${i}`,
		message_id: `${clientId}-m${i}`,
	};
	let last = '';
	for (let attempt = 0; attempt < 5; attempt++) {
		try {
			const reply = await admin<{ delivery_ids: string[] }>(emulator, 'POST', '/inbound', message);
			if (reply.status === 201 || reply.status === 200) return reply.body as { data: { delivery_ids: string[] } };
			last = `${reply.status} ${reply.text.slice(0, 200)}`;
		} catch (error) {
			last = (error as Error).message;
		}
		log.inboundRetried.push(`${message.message_id}: ${last}`);
		await sleep(200);
	}
	throw new Error(`The emulator did not take ${message.message_id}: ${last}`);
}

/** The same signed request again, shortly after: what a service retry after a timeout sends. */
async function copyLater(
	emulator: RunningEmulator,
	url: () => string,
	deliveryId: string,
	log: BurstLog,
): Promise<void> {
	await sleep(300);
	const attempts = (
		await admin<{
			attempts: Array<{ request: { headers: Record<string, string>; body: string } }>;
		}>(emulator, 'GET', `/deliveries/${deliveryId}`)
	).body.data.attempts;
	if (attempts.length === 0) return;
	const { headers, body } = attempts[0].request;
	try {
		const res = await fetch(url(), { method: 'POST', headers, body });
		log.copiesAnswered.push(res.status);
		await res.arrayBuffer();
	} catch {
		log.copiesFailed++;
	}
}
