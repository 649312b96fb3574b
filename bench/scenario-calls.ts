/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import {
	compileScenario,
	RecordingApi,
	ScenarioEngine,
	type MessageReceived,
	type WorkflowPort,
	timerWait,
} from '../runtime/scenarios';
import { MemoryStore } from '../runtime/stores';
import { handleConcurrently, percentile, table } from './lib';

/**
 * What a workflow step costs the engine: messages per second of a conversation step that calls a
 * trivial workflow (answering at once, in process) and replies with its result, against the same
 * step replying plainly, in the same run, same store (MemoryStore), same concurrency. The ratio is
 * the runtime's own cost of a call: the outbox entry, its lease, the outcome fed back as a second
 * step in the same record write. A real sub-workflow execution adds n8n's own time on top.
 */
const MESSAGES = Number(process.env.BENCH_CALL_MESSAGES ?? 10_000);
const CLIENTS = 500;
const CONCURRENCY = 50;

const loop = (step: Record<string, unknown>) =>
	compileScenario({
		id: 'bench',
		version: 1,
		start: 'ask',
		workflows: { echo: { returns: ['answer'] } },
		states: {
			ask: { on: [{ match: { any: true }, target: 'answer' }] },
			answer: step,
		},
	});

const plain = loop({
	messages: ['You said {{message.text}}.'],
	on: [{ match: { any: true }, target: 'answer' }],
});
const calling = loop({
	call: {
		workflow: 'echo',
		inputs: { text: '{{message.text}}' },
		store: { said: 'answer' },
		success: { say: 'You said {{vars.said}}.', target: 'ask' },
		failure: { say: 'Failed.', target: 'ask' },
	},
});
/** The trivial workflow: answers with its input. */
const echo: WorkflowPort = { call: async (_name, inputs) => ({ answer: inputs.text }) };

function events(count: number, prefix: string): MessageReceived[] {
	return Array.from({ length: count }, (_, n) => ({
		message_id: `${prefix}-${n}`,
		client_id: `cl_${n % CLIENTS}`,
		bot_id: 'bot_shop',
		text: `message ${Math.floor(n / CLIENTS)}`,
	}));
}

async function run(scenario: ReturnType<typeof loop>, list: MessageReceived[]) {
	const api = new RecordingApi();
	const engine = new ScenarioEngine({
		scenarios: [scenario],
		store: new MemoryStore(),
		api,
		clock: { now: () => Date.now() },
		wait: timerWait,
		workflows: echo,
	});
	const latencies: number[] = [];
	const started = performance.now();
	await handleConcurrently(async (e) => await engine.handle(e), list, CONCURRENCY, latencies);
	const ms = performance.now() - started;
	latencies.sort((a, b) => a - b);
	return { ms, p99: percentile(latencies, 99), replies: api.replies().length };
}

/** Runs the comparison and prints its table; used by `npm run bench:scenarios`. */
export async function benchWorkflowSteps(out: (line?: string) => void): Promise<void> {
	out(
		`Workflow steps: ${MESSAGES.toLocaleString('en')} messages, ${CLIENTS} clients, ${CONCURRENCY} in flight, MemoryStore`,
	);
	await run(plain, events(1_000, 'warm'));
	await run(calling, events(1_000, 'warm'));
	const list = events(MESSAGES, 'm');
	const base = await run(plain, list);
	const call = await run(calling, list);
	const rate = (r: { ms: number }) => Math.round(MESSAGES / (r.ms / 1000));
	out(
		table([
			{
				step: 'plain reply',
				'messages/s': rate(base),
				'p99 ms': base.p99.toFixed(2),
				replies: base.replies,
				'vs plain': '1.00',
			},
			{
				step: 'call a trivial workflow, reply with its result',
				'messages/s': rate(call),
				'p99 ms': call.p99.toFixed(2),
				replies: call.replies,
				'vs plain': (rate(call) / rate(base)).toFixed(2),
			},
		]),
	);
}

if (require.main === module) {
	benchWorkflowSteps((line = '') => process.stdout.write(`${line}\n`)).catch((error: unknown) => {
		process.stderr.write(`${String(error)}\n`);
		process.exitCode = 1;
	});
}
