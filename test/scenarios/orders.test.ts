import { compileScenario, formatIssue } from '../../runtime/scenarios';
import { validateScenario } from '../../runtime/scenarios/format/validate';
import { ADA, Chat, scenario, type Backend, backends } from './harness';

/** Counts the full client records read, to show they are read once a step and only when used. */
function counting(chat: Chat): { reads: () => number } {
	let reads = 0;
	const getClient = chat.api.getClient.bind(chat.api);
	chat.api.getClient = async (id) => {
		reads++;
		return await getClient(id);
	};
	return { reads: () => reads };
}

const lookup = scenario({
	ask: {
		messages: ['Which order?'],
		capture: {
			into: 'number',
			check: 'text',
			retry: 'Again?',
			retries: 1,
			giveUp: { target: 'ask' },
			target: 'find',
		},
	},
	find: {
		actions: [{ findOrder: '{{vars.number}}' }],
		choose: [
			{ when: [{ order: 'missing' }], say: 'No order {{vars.number}}.', target: 'ask' },
			{ when: [{ orderStatus: ['shipped', 'delivered'] }], say: 'On its way.', target: 'ask' },
			{
				say: 'Order {{order.order_id}} is {{order.status}} ({{order.total}} {{order.currency}}).',
				target: 'ask',
			},
		],
	},
});

describe.each(backends())(
	'scenarios read the client record with its orders ($name)',
	(b: Backend) => {
		it('finds an order by a captured number, guards on its status, says "not found" otherwise', async () => {
			const chat = new Chat([lookup], { openStore: b.open });
			const counter = counting(chat);
			expect(await chat.say('hi')).toEqual(['Which order?']);
			expect(await chat.say('1002')).toEqual(['Order ord_1002 is paid (12 EUR).', 'Which order?']);
			expect(await chat.say('ord_1001')).toEqual(['On its way.', 'Which order?']);
			expect(await chat.say('9999')).toEqual(['No order 9999.', 'Which order?']);
			// One read of the full record per message step, never more.
			expect(counter.reads()).toBe(4);
			// The orders are not kept in the conversation: only the order found is.
			const stored = await chat.store.read('scenario:default', 'bot_shop:cl_ada');
			expect(JSON.stringify(stored)).not.toContain('ord_1002');
		});

		it('answers from the orders as they are now, not as they were when the conversation began', async () => {
			const chat = new Chat([lookup], { openStore: b.open });
			await chat.say('hi');
			expect(await chat.say('1002')).toEqual(['Order ord_1002 is paid (12 EUR).', 'Which order?']);
			const ada = await chat.api.getClient('cl_ada');
			const orders = (ada.orders ?? []).map((o) =>
				o.order_id === 'ord_1002' ? { ...o, status: 'delivered' } : o,
			);
			chat.api.getClient = async () => ({ ...ada, orders });
			expect(await chat.say('1002')).toEqual(['On its way.', 'Which order?']);
		});
	},
);

describe('the full client record is read only when a scenario uses it', () => {
	it('a scenario that looks up no order reads no record for a live conversation', async () => {
		const chat = new Chat([
			scenario({
				a: { messages: ['Hi {{client.first_name}}'], on: [{ match: { any: true }, target: 'a' }] },
			}),
		]);
		const counter = counting(chat);
		await chat.say('one');
		await chat.say('two');
		await chat.say('three');
		expect(counter.reads()).toBe(1);
	});

	it('"latest" is the newest order', async () => {
		const doc = scenario({
			a: {
				actions: [{ findOrder: 'latest' }],
				messages: ['Your latest order {{order.order_id|none}}'],
				choose: [{ say: 'It is {{order.status}}.', target: 'b' }],
			},
			b: { end: true },
		});
		const chat = new Chat([doc]);
		// Entry messages come before entry actions, so the first message has not found it yet.
		expect(await chat.say('hi')).toEqual(['Your latest order none', 'It is paid.']);
		expect(ADA.orders?.[1].order_id).toBe('ord_1002');
	});
});

describe('validation of order look-ups and branches', () => {
	const problems = (doc: unknown) => {
		const r = validateScenario(doc);
		return r.ok ? [] : r.issues.map(formatIssue);
	};

	it('reports a missing catch-all branch, a branch looping on its state, {{order}} without a look-up', () => {
		expect(
			problems(
				scenario({
					a: {
						messages: ['{{order.status}}'],
						choose: [
							{ when: [{ order: 'found' }], target: 'a' },
							{ when: [{ orderStatus: 'paid' }] },
						],
					},
				}),
			),
		).toEqual([
			'states.a.messages[0]: reads {{order.…}}, but no "findOrder" action looks an order up',
			'states.a.choose[0].target: cannot be the state itself (it would decide again forever)',
			'states.a.choose[1].target: is required (or end the conversation, or jump with "goto")',
			'states.a.choose[1].when: must be left out on the last branch, so that one branch is always taken',
		]);
	});

	it('compiles the example that looks orders up', () => {
		expect(compileScenario(lookup).readsOrders).toBe(true);
	});
});
