import { compileScenario } from '../../runtime/scenarios';
import { assignVariant } from '../../runtime/scenarios/format/split';
import { Chat, scenario } from './harness';

/**
 * The machine takes an arrow into a split straight to the variant's state (inline-splits.ts):
 * what a client sees and what is counted must be what passing through the split state gives: the
 * arrow's actions, the split's, the variant's, in that order; both split states visited; the
 * variant kept; an arrow whose guard fails never taken through the split.
 */
const VARIANTS = [
	{ name: 'a', weight: 50, actions: [{ reply: 'A' }] },
	{ name: 'b', weight: 50, actions: [{ reply: 'B' }] },
];
const chain = scenario({
	ask: {
		messages: ['Say go'],
		on: [
			{ match: { contains: 'go' }, actions: [{ reply: 'Going' }], target: 'first' },
			{ match: { any: true }, actions: [{ reply: 'Not yet' }] },
		],
	},
	first: {
		split: { name: 'one', variants: VARIANTS.map((v) => ({ ...v, target: 'second' })) },
	},
	second: {
		split: {
			name: 'two',
			variants: [
				{ name: 'x', weight: 30, actions: [{ reply: 'X' }], target: 'done' },
				{ name: 'y', weight: 70, actions: [{ reply: 'Y' }], target: 'done' },
			],
			goal: { state: 'done' },
		},
	},
	done: { messages: ['Done'], on: [{ match: { any: true }, target: 'ask' }] },
});

const expected = (client: string) => [
	'Going',
	assignVariant({ variants: VARIANTS }, 'one', client).toUpperCase(),
	assignVariant(
		{
			variants: [
				{ name: 'x', weight: 30 },
				{ name: 'y', weight: 70 },
			],
		},
		'two',
		client,
	).toUpperCase(),
	'Done',
];

describe('an arrow into a split, taken in one step', () => {
	it('gives each client its variants of a chain of two splits, in order, and keeps them', async () => {
		const chat = new Chat([chain]);
		const clients = Array.from({ length: 40 }, (_, i) => `cl_${i}`);
		for (const client of clients) {
			expect(await chat.say('hi', client)).toEqual(['Say go']);
			expect(await chat.say('well', client)).toEqual(['Not yet']);
			expect(await chat.say('go', client)).toEqual(expected(client));
			expect(chat.last?.conversation?.state).toBe('done');
			// Back round: the kept variants again.
			expect(await chat.say('again', client)).toEqual(['Say go']);
			expect(await chat.say('go', client)).toEqual(expected(client));
		}
		const seen = new Set(clients.map((c) => expected(c).slice(1, 3).join('')));
		// Both variants of both tests were drawn among 40 clients.
		expect(seen.size).toBeGreaterThan(2);
	});

	it('counts both split states as passed, and their edges, as the path through them', () => {
		const compiled = compileScenario(chain);
		const persisted = { value: 'ask', context: { vars: {}, client: { id: 'cl_1', tags: [] } } };
		const snapshot = compiled.restore({
			...persisted,
			context: { ...persisted.context, tries: 0, handedOff: false, jump: null, order: null },
		} as never);
		const step = compiled.step(snapshot, {
			type: 'MESSAGE',
			message: { text: 'go', message_id: 'm', client_id: 'cl_1', bot_id: 'bot_shop' },
		} as never);
		expect(step.visits).toEqual(['first', 'second', 'done']);
		expect(compiled.persist(step.snapshot).value).toBe('done');
		expect(Object.keys(compiled.persist(step.snapshot).context.splits ?? {}).sort()).toEqual([
			'one',
			'two',
		]);
	});
});
