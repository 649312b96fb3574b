import { compileScenario, ScenarioValidationError } from '../../runtime/scenarios';
import { validateScenario } from '../../runtime/scenarios/format/validate';
import { Chat, scenario } from './harness';

const HOSTILE = `${'a'.repeat(27)}!`;

describe('regular expressions in scenarios cannot stall n8n', () => {
	it('refuses a pattern with a repeat inside a repeat, naming where and why', () => {
		const doc = scenario({
			ask: {
				messages: ['Your name?'],
				capture: {
					into: 'name',
					check: { regex: '^(\\w+\\s?)*$' },
					retry: 'Again?',
					target: 'ask',
				},
				on: [{ match: { regex: '(a+)+$' }, target: 'ask' }],
			},
		});
		const { issues } = validateScenario(doc);
		expect(issues).toEqual(
			expect.arrayContaining([
				expect.objectContaining({
					path: 'states.ask.capture.check.regex',
					message: expect.stringMatching(/exponential time.*repeat inside a repeat/),
				}),
				expect.objectContaining({ path: 'states.ask.on[0].match.regex' }),
			]),
		);
		expect(() => compileScenario(doc)).toThrow(ScenarioValidationError);
	});

	it('keeps ordinary patterns', () => {
		const doc = scenario({
			ask: {
				messages: ['Order number?'],
				capture: {
					into: 'n',
					check: { regex: '^\\d{4,8}$' },
					retry: 'Again?',
					retries: 1,
					giveUp: { target: 'ask' },
					target: 'ask',
				},
				on: [{ match: { regex: '^(order|track)\\b' }, target: 'ask' }],
			},
		});
		expect(validateScenario(doc).issues).toEqual([]);
	});

	it('answers the hostile message within 50 ms with the safe rewrite of the pattern', async () => {
		const chat = new Chat([
			scenario({
				ask: {
					messages: ['Your name?'],
					capture: {
						into: 'name',
						check: { regex: '^[\\w\\s]*$' },
						retry: 'Letters only',
						retries: 5,
						giveUp: { target: 'ask' },
						target: 'ask',
					},
				},
			}),
		]);
		await chat.say('hi');
		const started = performance.now();
		expect(await chat.say(HOSTILE)).toEqual(['Letters only']);
		expect(performance.now() - started).toBeLessThan(50);
	});

	it('answers a long message quickly even with a polynomial pattern', async () => {
		// Three adjacent repeats: cubic in the length of the message, not refused by the check.
		const chat = new Chat([
			scenario({
				ask: {
					messages: ['Digits?'],
					on: [{ match: { regex: '^\\d+\\d+\\d+x$' }, actions: [{ reply: 'yes' }] }],
					fallback: 'no',
				},
			}),
		]);
		await chat.say('hi');
		const started = performance.now();
		expect(await chat.say('1'.repeat(20_000))).toEqual(['no']);
		expect(performance.now() - started).toBeLessThan(50);
	});
});
