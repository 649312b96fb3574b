import fc from 'fast-check';

import { compileScenario } from '../../runtime/scenarios';
import { scenarioSchema } from '../../runtime/scenarios/format/schema';
import {
	acceptAnswer,
	matchesText,
	prepareCheck,
	prepareMatcher,
} from '../../runtime/scenarios/format/matchers';
import { compileBounded, REGEX_INPUT_LIMIT } from '../../runtime/scenarios/format/safe-regex';
import * as validate from '../../runtime/scenarios/format/validate';
import { Chat, scenario } from './harness';
import { REDOS, HOSTILE, LONG_HOSTILE, asking } from './regex-fixture';

/** Milliseconds one handled message took, the best of `tries` (jitter of a shared machine out). */
async function timed(chat: Chat, text: string, tries = 1): Promise<{ ms: number; said: string[] }> {
	let best = Infinity;
	let said: string[] = [];
	for (let i = 0; i < tries; i++) {
		const started = performance.now();
		said = await chat.say(text);
		best = Math.min(best, performance.now() - started);
	}
	return { ms: best, said };
}

/** Compiles without validation, as if a pattern had slipped past it. */
function compileUnchecked(doc: unknown) {
	const bypass = jest
		.spyOn(validate, 'parseScenario')
		.mockImplementation((input) => scenarioSchema.parse(input));
	try {
		return compileScenario(doc);
	} finally {
		bypass.mockRestore();
	}
}

describe('scenario regular expressions: matching is bounded', () => {
	it('answers the ReDoS message in well under 50 ms even when the pattern slipped past validation', async () => {
		const chat = new Chat([compileUnchecked(asking({ regex: REDOS }))]);
		await chat.say('hi');
		for (const text of [HOSTILE, LONG_HOSTILE, `${'ab '.repeat(333)}!`]) {
			const { ms, said } = await timed(chat, text, 3);
			expect({ text: text.slice(0, 30), said }).toEqual({
				text: text.slice(0, 30),
				said: ['Again?'],
			});
			expect(ms).toBeLessThan(50);
		}
		// It still does its job.
		expect(await chat.say('Ada Lovelace')).toEqual(['Got Ada Lovelace']);
	});

	it('costs microseconds at the matcher level, where V8 would take longer than the age of the universe', () => {
		const check = prepareCheck({ regex: REDOS });
		const match = prepareMatcher({ regex: REDOS });
		const started = performance.now();
		expect(acceptAnswer(check, HOSTILE)).toBeUndefined();
		expect(acceptAnswer(check, LONG_HOSTILE)).toBeUndefined();
		expect(matchesText(match, LONG_HOSTILE)).toBe(false);
		expect(acceptAnswer(check, 'hello there')).toBe('hello there');
		expect(performance.now() - started).toBeLessThan(50);
	});

	it('bounds a polynomial pattern that validation lets through', async () => {
		// Five adjacent repeats: V8 backtracks through about n^5 / 120 ways, 8·10^12 at 1,000 digits.
		const chat = new Chat([
			scenario({
				ask: {
					messages: ['Digits?'],
					on: [{ match: { regex: '^\\d+\\d+\\d+\\d+\\d+x$' }, actions: [{ reply: 'yes' }] }],
					fallback: 'no',
				},
			}),
		]);
		await chat.say('hi');
		for (const text of ['1'.repeat(REGEX_INPUT_LIMIT), '1'.repeat(20_000)]) {
			const { ms, said } = await timed(chat, text, 3);
			expect(said).toEqual(['no']);
			expect(ms).toBeLessThan(50);
		}
		expect(await chat.say('12345x')).toEqual(['yes']);
	});

	it('a state built to be as slow as validation allows answers hostile messages within 50 ms', async () => {
		// Each try on fresh patterns (another last character), so their automata are built anew.
		let best = Infinity;
		for (const last of ['x', 'y', 'z']) {
			const on = [`.{497}${last}`, `(\\p{L}|\\p{N}|\\p{P}){1,24}${last}`].map((regex) => ({
				match: { regex },
				actions: [{ reply: 'matched' }],
			}));
			const chat = new Chat([scenario({ ask: { messages: ['?'], on, fallback: 'no' } })]);
			await chat.say('hi');
			let slowest = 0;
			for (const text of ['a'.repeat(REGEX_INPUT_LIMIT), 'ab1 '.repeat(REGEX_INPUT_LIMIT / 4)]) {
				const { ms, said } = await timed(chat, text, 3);
				expect(said).toEqual(['no']);
				slowest = Math.max(slowest, ms);
			}
			best = Math.min(best, slowest);
		}
		// The best of three sets, each message the best of three: what the patterns cost, not what
		// a busy machine adds.
		expect(best).toBeLessThan(50);
	});

	it('a message longer than the limit matches no regular expression (its start is not enough)', async () => {
		// "greet": "hi" fits the pattern, and would otherwise answer the question at once.
		const chat = new Chat([asking({ regex: '^[\\w ]+$' }, [], { firstMessage: 'greet' })]);
		await chat.say('hi');
		expect(await chat.say('a'.repeat(REGEX_INPUT_LIMIT + 1))).toEqual(['Again?']);
		expect(await chat.say(`${'a'.repeat(REGEX_INPUT_LIMIT)}<script>`)).toEqual(['Again?']);
		expect(await chat.say('a'.repeat(REGEX_INPUT_LIMIT))).toEqual([
			`Got ${'a'.repeat(REGEX_INPUT_LIMIT)}`,
		]);
	});

	it('a plain pattern still works: ^\\d{4,8}$, case-insensitive unless told', async () => {
		const chat = new Chat([
			asking({ regex: '^\\d{4,8}$' }, [
				{ match: { regex: '^ORD-\\d+$', caseSensitive: true }, target: 'done' },
			]),
		]);
		await chat.say('hi');
		expect(await chat.say('123')).toEqual(['Again?']);
		expect(await chat.say('ord-12')).toEqual(['Again?']);
		expect(await chat.say('123456789')).toEqual(['Again?']);
		expect(await chat.say(' 12345 ')).toEqual(['Got 12345']);
		expect(compileBounded('^ord-\\d+$').test('ORD-7')).toBe(true);
		expect(compileBounded('^ord-\\d+$', true).test('ORD-7')).toBe(false);
	});

	it('means what the same pattern means in JavaScript', () => {
		const patterns = [
			'^\\d{4,8}$',
			'^(order|track)\\b',
			'^[\\w\\s]*$',
			'^\\d+([.,]\\d{1,2})?$',
			'^(\\d{1,3}\\.){3}\\d{1,3}$',
			'^[\\w.+-]+@[\\w-]+(\\.[\\w-]+)+$',
			'\\bno\\b',
			'^[^aeiou]+$',
			'(?<y>\\d{2})-(?:ab|c)',
			'a{,3}',
			'^é+$',
			'[^]b',
			'\\x41\\u0062',
			'^\\W*\\S$',
			'^.$',
			'(^|\\.)\\d',
		];
		const unit = fc.constantFrom(...'abAB.,-@+ _x1290éÉ{},3'.split(''));
		for (const pattern of patterns) {
			for (const caseSensitive of [false, true]) {
				const bounded = compileBounded(pattern, caseSensitive);
				const native = new RegExp(pattern, caseSensitive ? '' : 'i');
				fc.assert(
					fc.property(fc.string({ unit, maxLength: 16 }), (text) => {
						expect({ pattern, caseSensitive, text, matched: bounded.test(text) }).toEqual({
							pattern,
							caseSensitive,
							text,
							matched: native.test(text),
						});
					}),
					{ numRuns: 300 },
				);
			}
		}
	});
});
