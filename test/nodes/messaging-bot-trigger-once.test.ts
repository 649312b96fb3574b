import { closeSharedSqliteStores } from '../../runtime/stores/sqlite';
import { WebhookHost } from '../helpers/webhook-host';
import { delivery, message, post, SECRET, useTriggerWorkflows } from './trigger-fixture';

const triggerWorkflow = useTriggerWorkflows();

describe('Messaging Bot Trigger: each event once', () => {
	it('runs one execution for 100 copies of a delivery, 10 of them at once', async () => {
		const host = await new WebhookHost(triggerWorkflow(), {
			messagingBotWebhookApi: { secret: SECRET },
		}).start();
		const d = delivery('order.created', { client_id: 'cl_ada', order_id: 'ord_1' }, 'dlv_same');
		const concurrent = await Promise.all(Array.from({ length: 10 }, () => post(host, d)));
		const sequential = [];
		for (let i = 0; i < 90; i++) sequential.push(await post(host, d));
		const all = [...concurrent, ...sequential];
		expect(all.every((r) => r.status === 200)).toBe(true);
		expect(all.filter((r) => r.body.started === true)).toHaveLength(1);
		expect(all.filter((r) => r.body.reason === 'already received')).toHaveLength(99);
		await host.stop();
		expect(host.executions).toHaveLength(1);
	});

	it('drops a second delivery of the same message_id', async () => {
		const host = await new WebhookHost(triggerWorkflow(), {
			messagingBotWebhookApi: { secret: SECRET },
		}).start();
		await post(host, delivery('message.received', message('msg_twice'), 'dlv_a'));
		await post(host, delivery('message.received', message('msg_twice'), 'dlv_b'));
		await host.stop();
		expect(host.executions).toHaveLength(1);
	});

	it('still drops a redelivery after n8n restarts', async () => {
		const workflow = triggerWorkflow();
		const first = await new WebhookHost(workflow, {
			messagingBotWebhookApi: { secret: SECRET },
		}).start();
		const d = delivery('order.completed', { client_id: 'cl_ada' }, 'dlv_restart');
		await post(first, d);
		await first.stop();
		await closeSharedSqliteStores(); // the process's connections go, the file stays
		const second = await new WebhookHost(workflow, {
			messagingBotWebhookApi: { secret: SECRET },
		}).start();
		expect((await post(second, d)).body.reason).toBe('already received');
		await second.stop();
		expect(first.executions.length + second.executions.length).toBe(1);
	});
});

describe('Messaging Bot Trigger: bursts', () => {
	const burst = async (executions: 'batch' | 'perDelivery') => {
		const host = await new WebhookHost(triggerWorkflow({ executions }), {
			messagingBotWebhookApi: { secret: SECRET },
		}).start();
		const deliveries = Array.from({ length: 40 }, (_, i) =>
			delivery('order.created', { client_id: 'cl_ada', order_id: `ord_${i}` }, `dlv_burst_${i}`),
		);
		const answers = await Promise.all(deliveries.map((d) => post(host, d)));
		await host.stop();
		const carried = host.executions.flatMap((e) => e.items.map((i) => String(i.order_id)));
		return { answers, carried, runs: host.executions.length };
	};

	it('carries every delivery of a burst in exactly one execution, never more executions than deliveries', async () => {
		const { answers, carried, runs } = await burst('batch');
		expect(answers.every((a) => a.status === 200 && a.body.started === true)).toBe(true);
		expect(carried.sort()).toEqual(Array.from({ length: 40 }, (_, i) => `ord_${i}`).sort());
		expect(runs).toBeLessThanOrEqual(40);
	});

	it('starts one execution per delivery when asked to', async () => {
		const { carried, runs } = await burst('perDelivery');
		expect(carried).toHaveLength(40);
		expect(runs).toBe(40);
	});
});
