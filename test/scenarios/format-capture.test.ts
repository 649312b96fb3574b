import { backends, scenario } from './harness';
import { opener } from './format-fixture';

describe.each(backends())('scenario format ($name store)', (backend) => {
	const open = opener(backend);

	describe('input capture', () => {
		const capture = (check: unknown, retries = 2) =>
			scenario({
				ask: {
					messages: ['Your answer?'],
					capture: {
						into: 'answer',
						check,
						retry: 'Try again ({{message.text}} is not valid)',
						retries,
						giveUp: { say: 'I give up.', target: 'human' },
						target: 'done',
					},
				},
				done: { messages: ['Got {{vars.answer}}'] },
				human: { messages: ['A person will help'] },
			});

		it.each([
			['email', ' Ada@Example.COM ', 'ada@example.com'],
			['phone', '+44 (20) 7123-4567', '+442071234567'],
			['phone', '0044 20 7123 4567', '+442071234567'],
			['number', '3,50', '3.5'],
			['text', 'anything at all', 'anything at all'],
		])('checks %s and stores it normalised', async (check, input, stored) => {
			const chat = open([capture(check)]);
			await chat.say('hi');
			expect(await chat.say(input)).toEqual([`Got ${stored}`]);
			expect((await chat.state())?.vars).toEqual({ answer: stored });
		});

		it('checks a regex, one of a list (stored as the scenario spells it), a number range', async () => {
			let chat = open([capture({ regex: '^[A-Z]{2}\\d{4}$' })]);
			await chat.say('hi');
			expect(await chat.say('ab1234')).toEqual(['Got ab1234']);
			chat = open([capture({ oneOf: ['Small', 'Large'] })]);
			await chat.say('hi');
			expect(await chat.say('medium')).toEqual(['Try again (medium is not valid)']);
			expect(await chat.say('LARGE')).toEqual(['Got Large']);
			chat = open([capture({ number: { min: 1, max: 10 } })]);
			await chat.say('hi');
			expect(await chat.say('11')).toEqual(['Try again (11 is not valid)']);
			expect(await chat.say('10')).toEqual(['Got 10']);
		});

		it('sends the retry message N times, then gives up to the given state', async () => {
			const chat = open([capture('email', 2)]);
			await chat.say('hi');
			expect(await chat.say('nope')).toEqual(['Try again (nope is not valid)']);
			expect(await chat.say('still no')).toEqual(['Try again (still no is not valid)']);
			expect(await chat.say('never')).toEqual(['I give up.', 'A person will help']);
			expect((await chat.state())?.state).toBe('human');
		});

		it('counts tries per visit: re-entering the state starts over', async () => {
			const doc = capture('email', 1);
			(doc.states as Record<string, Record<string, unknown>>).ask.on = [
				{ match: { equals: 'again' }, target: 'ask' },
			];
			const chat = open([doc]);
			await chat.say('hi');
			expect(await chat.say('x')).toEqual(['Try again (x is not valid)']);
			expect(await chat.say('again')).toEqual(['Your answer?']);
			expect(await chat.say('y')).toEqual(['Try again (y is not valid)']);
			expect(await chat.say('a@b.co')).toEqual(['Got a@b.co']);
		});
	});
});
