import { transition } from 'xstate';

import { compileScenario } from '../../runtime/scenarios';
import { example } from './harness';

const ada = { id: 'cl_ada', first_name: 'Ada', tags: [] };

// The compiled machine on its own: named actions and guards, stepped with the pure transition().
describe('compiled scenario machine', () => {
	const order = compileScenario(example('order-status'));

	it('is built with setup() and named implementations', () => {
		const impl = order.machine.implementations;
		expect(Object.keys(impl.actions).sort()).toEqual(
			[
				'applyTags',
				'callWorkflow',
				'countTry',
				'findOrder',
				'handOff',
				'keepVariant',
				'note',
				'prepareJump',
				'reachGoal',
				'release',
				'reply',
				'resetTries',
				'setVars',
				'updateTags',
				'visit',
			].sort(),
		);
		expect(Object.keys(impl.guards).sort()).toEqual(
			[
				'answerValid',
				'conditionHolds',
				'entryIs',
				'menuChoice',
				'outcomeIs',
				'silenced',
				'textMatches',
				'triesLeft',
				'variantDrawn',
				'variantIs',
			].sort(),
		);
	});

	it('computes effects without performing them: transition() returns the named actions', () => {
		const start = order.initial({ client: ada, message: { text: 'hi' } });
		const [next, actions] = transition(order.machine, start.snapshot, {
			type: 'MESSAGE',
			message: { text: 'where is my order' },
		});
		expect(next.value).toBe('ask_email');
		// The states entered come first, in order: the path the analytics count.
		expect(actions.map((a) => [a.type, a.params])).toEqual([
			['visit', { state: 'ask_email' }],
			['reply', { text: 'What email address did you use for the order?' }],
		]);
		// Assignments are applied to the snapshot, not returned: only effects are left to do.
		const human = order.step(next, { type: 'MESSAGE', message: { text: 'talk to a human' } });
		expect(human.effects).toEqual([
			{ kind: 'reply', text: 'I am passing you to a colleague, who will answer here shortly.' },
			{ kind: 'tags', add: ['needs-human'], remove: [] },
		]);
		expect(human.snapshot.context.handedOff).toBe(true);
	});

	it('persists a snapshot as JSON and steps on from the restored one', () => {
		let snapshot = order.initial({ client: ada, message: { text: 'hi' } }).snapshot;
		for (const text of ['order', 'ada@example.com']) {
			const stored = JSON.stringify(order.persist(snapshot));
			snapshot = order.step(order.restore(JSON.parse(stored)), {
				type: 'MESSAGE',
				message: { text },
			}).snapshot;
		}
		expect(order.persist(snapshot)).toEqual({
			value: 'ask_number',
			context: {
				vars: { email: 'ada@example.com' },
				client: ada,
				tries: 0,
				handedOff: false,
				jump: null,
				order: null,
			},
		});
	});

	it('enters a given state when started by a jump', () => {
		const step = order.initial({
			entry: 'status',
			client: ada,
			vars: { email: 'a@b.co', order_number: '1001' },
		});
		expect(step.snapshot.value).toBe('status');
		expect(step.effects.map((e) => (e.kind === 'reply' ? e.text : ''))).toEqual([
			'Anything else? Type "order" for another order, or "no" to finish.',
		]);
	});
});
