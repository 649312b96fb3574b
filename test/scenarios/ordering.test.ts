/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling: real timers for real waits, never loaded by n8n */
import {
	compileScenario,
	type MessageReceived,
	RecordingApi,
	ScenarioEngine,
} from '../../runtime/scenarios';
import type { EngineOptions } from '../../runtime/scenarios/engine/engine';
import {
	encodeInbound,
	inboxClaims,
	inboxNamespace,
	inboxQueue,
} from '../../runtime/scenarios/engine/inbox';
import type { StateStore } from '../../runtime/stores';
import { backends, scenario } from './harness';

/** Each message appends itself to a log and answers it: the order applied is plain to see. */
const logger = compileScenario(
	scenario(
		{
			a: {
				messages: ['Hello'],
				on: [
					{
						match: { any: true },
						actions: [
							{ reply: 'got {{message.text}}' },
							{ set: { log: '{{vars.log}}{{message.text}};' } },
						],
					},
				],
			},
		},
		{ variables: ['log'] },
	),
);

const realClock = {
	now: () => Date.now(),
	sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
};
const T0 = Date.UTC(2026, 10, 22, 10, 0, 0);

function message(client: string, n: number, text = `m${n}`, at = T0 + n * 1000): MessageReceived {
	return {
		message_id: `${client}-${n}`,
		client_id: client,
		bot_id: 'bot_shop',
		text,
		timestamp: new Date(at).toISOString(),
	};
}

describe.each(backends())('conversation order and acceptance: $name', (backend) => {
	let store: StateStore;
	let api: RecordingApi;
	const engine = (extra: Partial<EngineOptions> = {}, on: StateStore = store) =>
		new ScenarioEngine({
			scenarios: [logger],
			store: on,
			api,
			clock: realClock,
			scope: 'wf',
			...extra,
		});
	const said = (client: string) =>
		api.calls.flatMap((c) => (c.kind === 'reply' && c.clientId === client ? [c.text] : []));
	beforeEach(() => {
		store = backend.open(realClock.now);
		api = new RecordingApi();
	});

	it('applies messages that arrive out of order within the window in the order written', async () => {
		// Two "executions" (engines) and a second connection, as n8n runs concurrent deliveries.
		const other = backend.reopen(realClock.now);
		const engines = [engine({ reorderWindowMs: 600 }), engine({ reorderWindowMs: 600 }, other)];
		await engines[0].handle(message('cl_ada', 0, 'start'));
		const arrival = [3, 1, 5, 2, 6, 4];
		const results = await Promise.all(
			arrival.map(async (n, i) => {
				await realClock.sleep(i * 15);
				return engines[i % 2].handle(message('cl_ada', n));
			}),
		);
		expect(said('cl_ada')).toEqual(['Hello', ...[1, 2, 3, 4, 5, 6].map((n) => `got m${n}`)]);
		const applied = results.flatMap((r) => [r, ...(r.alsoApplied ?? [])]);
		expect(applied.filter((r) => r.status === 'handled')).toHaveLength(6);
		expect((await engines[0].conversation('bot_shop', 'cl_ada'))?.vars.log).toBe(
			'm1;m2;m3;m4;m5;m6;',
		);
		if (other !== store) await other.close();
	});

	it('never applies a late redelivery as new; the designer picks what happens', async () => {
		const ignore = engine();
		await ignore.handle(message('cl_ada', 0, 'start'));
		await ignore.handle(message('cl_ada', 2));
		const late = await ignore.handle(message('cl_ada', 1));
		expect(late).toMatchObject({ status: 'late', late: true, handoff: false, actions: [] });
		expect(said('cl_ada')).toEqual(['Hello', 'got m2']);

		const apply = engine({ latePolicy: 'apply' });
		const applied = await apply.handle(message('cl_ada', 1, 'm1 again'));
		expect(applied.status).toBe('duplicate'); // the same message id: never twice
		const older = await apply.handle({
			...message('cl_ada', 9, 'older'),
			timestamp: new Date(T0).toISOString(),
		});
		expect(older).toMatchObject({ status: 'late', late: true });
		expect(said('cl_ada').at(-1)).toBe('got older');

		const handoff = engine({ latePolicy: 'handoff' });
		const handed = await handoff.handle({
			...message('cl_ada', 10, 'oldest'),
			timestamp: new Date(T0 - 5000).toISOString(),
		});
		expect(handed).toMatchObject({ status: 'late', handoff: true });
		expect((await handoff.conversation('bot_shop', 'cl_ada'))?.handedOff).toBe(true);
	});

	it('applies a message the trigger accepted whose execution never ran, on the scheduled run', async () => {
		const runner = engine({ stalledAfterMs: 0 });
		await runner.handle(message('cl_grace', 0, 'start'));
		// What the trigger records before answering 200; then n8n dies before the execution.
		const stranded = message('cl_grace', 1, 'stranded');
		await store.enqueue(
			inboxNamespace('wf'),
			inboxQueue(stranded),
			inboxClaims(stranded.message_id, 'dlv_1'),
			encodeInbound(stranded),
			60_000,
		);
		const due = await runner.runDueWork(Date.now() + 1);
		expect(due.messages.map((r) => [r.messageId, r.status])).toEqual([['cl_grace-1', 'handled']]);
		expect(said('cl_grace')).toEqual(['Hello', 'got stranded']);
		// Its redelivery is a duplicate; nothing is sent again.
		expect((await runner.handle(stranded)).status).toBe('duplicate');
		const at = Date.now() + 1;
		const work = await runner.runDueWork(at);
		expect(work).toEqual({
			messages: [],
			timers: [],
			failures: [],
			conversations: 0,
			dueBy: work.dueBy,
			carriedOver: 0,
			healing: [],
		});
		expect(work.dueBy).toBeGreaterThanOrEqual(at);
		expect(said('cl_grace')).toHaveLength(2);
	});

	it('the next message of the conversation applies a stranded earlier one first', async () => {
		const runner = engine();
		await runner.handle(message('cl_alan', 0, 'start'));
		const stranded = message('cl_alan', 1, 'first');
		await store.enqueue(
			inboxNamespace('wf'),
			inboxQueue(stranded),
			inboxClaims(stranded.message_id),
			encodeInbound(stranded),
			60_000,
		);
		const next = await runner.handle(message('cl_alan', 2, 'second'));
		expect(next.status).toBe('handled');
		expect(next.alsoApplied?.map((r) => r.messageId)).toEqual(['cl_alan-1']);
		expect(said('cl_alan')).toEqual(['Hello', 'got first', 'got second']);
	});
});

describe('retention', () => {
	it('forgets a conversation that went quiet for the retention period', async () => {
		let now = T0;
		const { MemoryStore } = await import('../../runtime/stores');
		const store = new MemoryStore(() => now);
		const engine = new ScenarioEngine({
			scenarios: [logger],
			store,
			api: new RecordingApi(),
			clock: { now: () => now },
			retentionMs: 1000,
		});
		await engine.handle(message('cl_ada', 0, 'start'));
		now += 999;
		expect(await engine.conversation('bot_shop', 'cl_ada')).toBeDefined();
		now += 1;
		expect(await engine.conversation('bot_shop', 'cl_ada')).toBeUndefined();
	});
});
