/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling: timers stand for a slow workflow and a stopped worker, never loaded by n8n */
import { formatIssue, renderDiagram, compileScenario } from '../../runtime/scenarios';
import { validateScenario } from '../../runtime/scenarios/format/validate';
import type { WorkflowPort } from '../../runtime/scenarios';
import { Chat, scenario, START } from './harness';

/** A scenario that looks an order up in a workflow and answers from its result. */
const faq = scenario(
	{
		ask: {
			messages: ['Ask me anything.'],
			capture: {
				into: 'question',
				check: 'text',
				retry: 'Again?',
				retries: 1,
				giveUp: { target: 'ask' },
				target: 'lookup',
			},
		},
		lookup: {
			call: {
				workflow: 'faq',
				inputs: { question: '{{vars.question}}', client: '{{client.id}}' },
				timeoutSeconds: 0.2,
				store: { answer: 'answer', whole: '' },
				success: { say: '{{vars.answer}}', target: 'ask' },
				empty: { say: 'I do not know that one.', target: 'ask' },
				failure: { say: 'The lookup failed.', target: 'ask' },
				timeout: { say: 'The lookup is slow today.', target: 'ask' },
			},
		},
	},
	{ workflows: { faq: { returns: ['answer'] } } },
);

function port(handler: (inputs: Record<string, string>) => Promise<unknown>) {
	const calls: Array<{ name: string; inputs: Record<string, string> }> = [];
	const workflows: WorkflowPort = {
		call: async (name, inputs) => {
			calls.push({ name, inputs });
			return await handler(inputs);
		},
	};
	return { calls, workflows };
}

const answers = async (inputs: Record<string, string>) => {
	if (inputs.question === 'hours') return { answer: 'We open at 9.' };
	if (inputs.question === 'boom') throw new Error('Workflow failed: boom');
	if (inputs.question === 'slow')
		return await new Promise((r) => setTimeout(() => r({ answer: 'late' }), 1000));
	return undefined;
};

describe('workflow steps', () => {
	it('calls the workflow with rendered inputs, stores its result and takes each outcome branch', async () => {
		const { calls, workflows } = port(answers);
		const chat = new Chat([faq], { engine: { workflows } });
		expect(await chat.say('hi')).toEqual(['Ask me anything.']);
		expect(await chat.say('hours')).toEqual(['We open at 9.', 'Ask me anything.']);
		expect(calls).toEqual([{ name: 'faq', inputs: { question: 'hours', client: 'cl_ada' } }]);
		expect((await chat.state())?.vars).toMatchObject({
			answer: 'We open at 9.',
			whole: '{"answer":"We open at 9."}',
		});
		expect(await chat.say('parking')).toEqual(['I do not know that one.', 'Ask me anything.']);
		expect(await chat.say('boom')).toEqual(['The lookup failed.', 'Ask me anything.']);
		expect(await chat.say('slow')).toEqual(['The lookup is slow today.', 'Ask me anything.']);
		const call = chat.last?.actions.find((a) => a.kind === 'workflow');
		expect(call).toMatchObject({ workflow: 'faq', status: 'done', result: { outcome: 'timeout' } });
	});

	it('is an effect in the outbox: ordered after the replies before it, made once', async () => {
		const { calls, workflows } = port(answers);
		const chat = new Chat([faq], { engine: { workflows } });
		await chat.say('hi');
		await chat.say('hours');
		expect(chat.last?.actions.map((a) => a.kind)).toEqual(['workflow', 'reply', 'reply']);
		// A redelivery of the same message resumes nothing and calls nothing again.
		await chat.say('hours', 'cl_ada', 'm2');
		expect(calls).toHaveLength(1);
	});

	it('a call whose worker stopped is reported, never made again, and takes the failure branch', async () => {
		let release: () => void = () => undefined;
		const hung = new Promise<void>((r) => (release = r));
		const first = port(async () => await hung.then(() => ({ answer: 'never used' })));
		// The first worker's clock stops with it: whatever it still renews is in the past.
		const chat = new Chat([faq], {
			engine: { workflows: first.workflows, leaseMs: 1000, clock: { now: () => START } },
		});
		await chat.say('hi');
		// The first worker starts the call and "dies" (its promise never settles for the engine).
		void chat.say('hours');
		await new Promise((r) => setTimeout(r, 50));
		expect(first.calls).toHaveLength(1);
		const second = port(answers);
		const other = chat.newEngine([compileScenario(faq)], chat.api, {
			workflows: second.workflows,
			leaseMs: 1000,
		});
		chat.time = START + 10 * 60_000;
		const work = await other.runDueWork(chat.time);
		const actions = work.timers.flatMap((t) => t.actions);
		expect(actions.find((a) => a.kind === 'workflow')).toMatchObject({
			status: 'unknown',
			result: { outcome: 'failure' },
		});
		expect(actions.filter((a) => a.kind === 'reply').map((a) => a.text)).toEqual([
			'The lookup failed.',
			'Ask me anything.',
		]);
		expect(second.calls).toHaveLength(0);
		release();
	});

	it('validates the step with JSON paths and draws its outcomes', () => {
		const broken = scenario(
			{
				a: {
					call: {
						workflow: 'lookup_ordr',
						store: { status: 'state' },
						success: { say: '{{vars.eta}}', target: 'a' },
					},
					on: [{ match: { any: true }, target: 'a' }],
				},
				b: {
					call: {
						workflow: 'lookup_order',
						store: { status: 'state' },
						success: { say: 'Order {{vars.eta}}', target: 'a' },
						failure: { say: 'Oops' },
					},
				},
			},
			{ variables: ['eta'], workflows: { lookup_order: { returns: ['status', 'eta'] } } },
		);
		const result = validateScenario(broken);
		expect(result.ok ? [] : result.issues.map(formatIssue)).toEqual([
			'states.a.call.failure: is required',
			'states.a.call.workflow: no workflow named "lookup_ordr" (did you mean "lookup_order"?); declare it in "workflows" (workflows: lookup_order)',
			'states.a.call.success.target: cannot be the state itself (it would call again forever)',
			'states.a.call.success.say: {{vars.eta}} is never stored: add it to this call\'s "store" (stores: status)',
			'states.a.on: cannot be used with "call" (the state waits for the workflow\'s result)',
			'states.b.call.store.status: the workflow "lookup_order" returns no field "state" (returns: status, eta)',
			'states.b.call.success.say: {{vars.eta}} is never stored: add it to this call\'s "store" (stores: status)',
			'states.b.call.failure.target: is required (or end the conversation, or jump with "goto")',
		]);
		expect(renderDiagram(compileScenario(faq).document)).toContain('lookup --> ask : faq: timeout');
	});
});
