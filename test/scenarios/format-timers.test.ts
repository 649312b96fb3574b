import { backends, Chat, example, MINUTE, scenario, START } from './harness';
import { opener } from './format-fixture';

describe.each(backends())('scenario format ($name store)', (backend) => {
	const open = opener(backend);

	describe('silence timers', () => {
		const timed = () =>
			scenario({
				a: {
					messages: ['Question?'],
					on: [{ match: { equals: 'next' }, target: 'b' }],
					fallback: 'Hm',
					after: { minutes: 10, send: 'Still there?' },
				},
				b: {
					messages: ['B'],
					after: { minutes: 5, send: ['Closing', 'Bye'], target: 'c' },
				},
				c: { messages: ['C'], after: { minutes: 1, actions: [{ end: true }] } },
			});

		it('fires after N minutes of silence, once, and not before', async () => {
			const chat = open([timed()]);
			await chat.say('hi');
			expect(await chat.wait(9.9)).toEqual([]);
			expect(await chat.wait(0.1)).toEqual(['Still there?']);
			expect(await chat.wait(60)).toEqual([]);
		});

		it('is cancelled by a client message and counted again from it', async () => {
			const chat = open([timed()]);
			await chat.say('hi');
			await chat.wait(8);
			await chat.say('hmm');
			expect(await chat.wait(8)).toEqual([]);
			expect(await chat.wait(2)).toEqual(['Still there?']);
			await chat.say('next');
			expect((await chat.state())?.timer).toEqual({ dueAt: chat.time + 5 * MINUTE, state: 'b' });
		});

		it('goes to its target, whose own timer then runs; can end the conversation', async () => {
			const chat = open([timed()]);
			await chat.say('hi');
			await chat.say('next');
			expect(await chat.wait(5)).toEqual(['Closing', 'Bye', 'C']);
			expect(await chat.wait(1)).toEqual([]);
			expect(await chat.state()).toMatchObject({ ended: true, timer: null });
		});

		it('fires once when several schedules run at the same time', async () => {
			const chat = open([timed()]);
			await chat.say('hi', 'cl_ada');
			await chat.say('hi', 'cl_grace');
			chat.time += 10 * MINUTE;
			const runs = await Promise.all([
				chat.engine.runDueWork(),
				chat.engine.runDueWork(),
				chat.newEngine([...chat.engine.scenarios.values()]).runDueWork(),
			]);
			expect(runs.flatMap((run) => run.timers)).toHaveLength(2);
			expect(chat.api.replies()).toEqual([
				'Question?',
				'Question?',
				'Still there?',
				'Still there?',
			]);
		});

		it('survives a restart: a new engine on the same store fires it', async () => {
			const first = open([timed()]);
			await first.say('hi');
			await first.store.close();
			const second = new Chat([timed()], { openStore: backend.reopen });
			second.time = first.time;
			expect(await second.wait(10)).toEqual(['Still there?']);
			expect(first.api.replies()).toEqual(['Question?']);
		});
	});

	it('uses the clock it is given, never the machine time', async () => {
		const chat = open([example('support')]);
		await chat.say('hi');
		expect((await chat.state())?.timer?.dueAt).toBe(START + 10 * MINUTE);
	});
});
