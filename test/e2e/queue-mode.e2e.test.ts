/* eslint-disable @n8n/community-nodes/no-restricted-globals -- end-to-end tooling: runs a real n8n, never loaded by n8n */
import {
	exampleWorkflows,
	keepingEveryExecution,
	productionUrl,
	type Workflow,
} from '../../scripts/lib/demo-setup';
import { waitForWebhook } from '../../scripts/lib/n8n-process';
import { startEmulator, type RunningEmulator } from '../emulator';
import { admin } from '../helpers/emulator';
import { clientOf } from './conversation';
import { BROKEN, callsBot, SLOW } from './workflow-steps';
import { onStore, psql, SHARED_STORES, startQueueMode, STATE_DBS, type QueueMode } from './queue';

jest.setTimeout(300_000);

const SECRET = ['whsec', 'queue', 'mode'].join('_');

// n8n in queue mode: a main process that receives the webhooks and two workers that run the
// executions, on PostgreSQL and Redis. The trigger's delivery IDs are taken in the main process,
// the conversation is stepped in whichever worker gets each execution: only a shared store
// keeps the conversation whole: Redis, or PostgreSQL (n8n's own database).
// On PostgreSQL unless MB_QUEUE_STORES says otherwise: Redis in queue mode is shown by the kill,
// pause, budget and Redis-loss suites, and CI has 40 minutes (a queue-mode start costs two).
const MODE_STORES = process.env.MB_QUEUE_STORES ? SHARED_STORES : (['postgres'] as const);
describe.each(MODE_STORES)(
	'in a real n8n in queue mode (main + 2 workers), state in %s',
	(store) => {
		let emulator: RunningEmulator;
		let n8n: QueueMode;
		let database: string;
		let bot: Workflow;
		let botUrl: string;

		beforeAll(async () => {
			emulator = await startEmulator();
			bot = onStore(
				store,

				keepingEveryExecution(
					exampleWorkflows().find((w) => w.id === 'mbOrderStatusBot') as Workflow,
				),
			);
			const lookup = exampleWorkflows().find((w) => w.id === 'mbFaqLookup0001') as Workflow;
			n8n = await startQueueMode(
				{ baseUrl: emulator.baseUrl, apiKey: emulator.apiKey },
				SECRET,
				[bot, onStore(store, callsBot()), lookup, BROKEN, SLOW],
				{ stateDb: STATE_DBS.mode, store },
			);
			database = n8n.database;
			botUrl = productionUrl(n8n.main.url, bot);
			await waitForWebhook(botUrl);
			const saved = await admin<{ test_delivery: { state: string } }>(
				emulator,
				'POST',
				'/subscriptions',
				{ url: botUrl, secret: SECRET, events: ['message.received'] },
			);
			expect(saved.body.data.test_delivery.state).toBe('delivered');
		}, 900_000);

		afterAll(async () => {
			await n8n?.stop();
			await emulator?.close();
		});

		const { sent, write } = clientOf(() => emulator, 'bot_shop', 'cl_grace');

		it('holds a whole conversation across the workers, every reply once and in order', async () => {
			// Grace's order 2002 has shipped: the scenario finds it among her orders.
			await admin(emulator, 'POST', '/events', {
				event: 'order.created',
				data: { client_id: 'cl_grace', order_id: 'ord_2002', status: 'shipped' },
			});
			expect(await write('hi', 1)).toEqual([
				'Hi Grace! I can tell you where your order is. Type "order" to start.',
			]);
			expect(await write('where is my order?', 1)).toEqual([
				'What email address did you use for the order?',
			]);
			expect(await write('grace@example.com', 1)).toEqual([
				'Thanks! And the order number? It is in the confirmation we sent to grace@example.com.',
			]);
			expect(await write('2002', 2)).toEqual([
				'Order 2002 has shipped. Tracking details are on their way to grace@example.com.',
				'Anything else? Type "order" for another order, or "no" to finish.',
			]);
			await new Promise((r) => setTimeout(r, 1_000));
			expect(await sent()).toHaveLength(5);
			const runs = psql(
				`SELECT status || ':' || mode FROM execution_entity WHERE "workflowId" = '${bot.id}' AND mode = 'webhook' ORDER BY id`,
				database,
			).split('\n');
			// (The Schedule Trigger's "fire due timers" runs are the workflow's other executions.)
			expect(runs).toEqual(Array(4).fill('success:webhook'));
			// The state is in the shared store, not in a file one machine's processes happen to share.
			const conversation = (await n8n.records('scenario:@order-status')).find(
				(r) => r.key === 'bot_shop:cl_grace',
			);
			const claims = await n8n.claims('inbox:@order-status', 'd:');
			expect(JSON.parse(conversation?.value ?? '{}')).toMatchObject({
				snapshot: { value: 'status' },
			});
			expect(claims).toBeGreaterThanOrEqual(4);
		});

		it('drops a redelivery in the main process: 200, no execution', async () => {
			const [first] = (
				await admin<Array<{ id: string }>>(emulator, 'GET', '/deliveries?event=message.received')
			).body.data;
			const { request } = (
				await admin<{
					attempts: Array<{ request: { headers: Record<string, string>; body: string } }>;
				}>(emulator, 'GET', `/deliveries/${first.id}`)
			).body.data.attempts[0];
			const res = await fetch(botUrl, {
				method: 'POST',
				headers: request.headers,
				body: request.body,
			});
			expect(res.status).toBe(200);
			await new Promise((r) => setTimeout(r, 2_000));
			const count = psql(
				`SELECT count(*) FROM execution_entity WHERE "workflowId" = '${bot.id}' AND mode = 'webhook'`,
				database,
			);
			expect(count).toBe('4');
			expect(await sent()).toHaveLength(5);
		});

		it('a scenario calls sub-workflows in the workers: an answer, a failure, a timeout', async () => {
			// Only this bot answers now: the order-status bot's subscription is removed.
			const subs = await admin<Array<{ id: string }>>(emulator, 'GET', '/subscriptions');
			for (const sub of subs.body.data) await admin(emulator, 'DELETE', `/subscriptions/${sub.id}`);
			const url = productionUrl(n8n.main.url, callsBot());
			await waitForWebhook(url);
			await admin(emulator, 'POST', '/subscriptions', {
				url,
				secret: SECRET,
				events: ['message.received'],
			});
			const alan = clientOf(() => emulator, 'bot_shop', 'cl_alan');
			expect(await alan.write('hi', 1)).toEqual(['Ask.']);
			expect(await alan.write('when do you deliver?', 1)).toEqual([
				'We deliver in 2 to 3 working days; you get a tracking link by email.',
			]);
			expect(await alan.write('fail', 1)).toEqual(['Lookup failed.']);
			expect(await alan.write('slow', 1)).toEqual(['Lookup timed out.']);
			expect(await alan.write('where do you park?', 1)).toEqual(['No answer.']);
		});
	},
);
