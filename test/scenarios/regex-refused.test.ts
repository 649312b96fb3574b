import { compileScenario, ScenarioValidationError } from '../../runtime/scenarios';
import { validateScenario } from '../../runtime/scenarios/format/validate';
import {
	checkPattern,
	REGEX_PROGRAM_LIMIT,
	REGEX_STATE_LIMIT,
} from '../../runtime/scenarios/format/safe-regex';
import { example } from './harness';
import { REDOS, asking } from './regex-fixture';

describe('scenario regular expressions: refused when catastrophic', () => {
	it('refuses the ReDoS pattern of the issue wherever it appears, with its JSON path and why', () => {
		const doc = asking({ regex: REDOS }, [{ match: { regex: REDOS }, target: 'done' }], {
			keywords: [{ match: { regex: '(a+)+$' }, actions: [{ end: true }] }],
		});
		const { issues } = validateScenario(doc);
		const why = expect.stringMatching(
			/^nested quantifier: \(\\w\+\\s\?\)\* repeats \\w\+ inside a repeat, which can take exponential time on some messages; rewrite it/,
		);
		expect(issues).toEqual([
			{
				path: 'keywords[0].match.regex',
				message: expect.stringContaining('nested quantifier: (a+)+ repeats a+'),
			},
			{ path: 'states.ask.on[0].match.regex', message: why },
			{ path: 'states.ask.capture.check.regex', message: why },
		]);
		expect(() => compileScenario(doc)).toThrow(ScenarioValidationError);
		expect(() => compileScenario(doc)).toThrow(
			/states\.ask\.capture\.check\.regex: nested quantifier/,
		);
	});

	it('refuses what cannot run in linear time, or reads differently, or is too big: path and reason', () => {
		const cases: Array<[string, RegExp]> = [
			[
				'(',
				/^is not a valid regular expression \(Invalid regular expression: \/\(\/i: Unterminated group\)$/,
			],
			['^(?=.*\\d)\\w+$', /^uses a lookahead \(\(\?=…\), which cannot be matched in linear time/],
			['(?<!no )thanks', /^uses a lookbehind/],
			['^(\\w)\\1$', /^uses a backreference \(\\1\)/],
			['^(?<w>\\w)\\k<w>$', /^uses a backreference \(\\k<…>\)/],
			['\\Ayes\\z', /^uses \\A, which JavaScript reads as the letter "A"/],
			['^[[:alpha:]]+$', /^uses a POSIX class/],
			['x'.repeat(501), /^is longer than 500 characters$/],
			[
				'^\\d{1,500}$',
				new RegExp(
					`^is too complex: its automaton has \\d+ instructions, at most ${REGEX_PROGRAM_LIMIT}`,
				),
			],
			['^(a|b+)*$', /^nested quantifier: \(a\|b\+\)\* repeats b\+/],
			['^(\\w+,?)+$', /^nested quantifier/],
			['^(.*a){12}$', /^nested quantifier/],
		];
		for (const [regex, why] of cases) {
			const { issues } = validateScenario(asking({ regex }));
			expect({ regex, issues }).toEqual({
				regex,
				issues: [{ path: 'states.ask.capture.check.regex', message: expect.stringMatching(why) }],
			});
		}
	});

	it("holds a state's patterns together to a budget: a message is tried against all of them", () => {
		const big = ['.{497}x', '(\\p{L}|\\p{N}|\\p{P}){1,24}x'];
		const costs = big.map((regex) => checkPattern(regex));
		expect(costs).toEqual([
			{ ok: true, cost: 500 },
			{ ok: true, cost: 98 },
		]);
		const on = big.map((regex) => ({ match: { regex }, target: 'done' }));
		expect(validateScenario(asking('text', on)).issues).toEqual([]);
		const tooMuch = (what: string) =>
			expect.stringMatching(
				new RegExp(
					`^${what} are too complex together \\(\\d+ automaton instructions, at most ${REGEX_STATE_LIMIT}\\): a client message is tried against all of them`,
				),
			);
		expect(validateScenario(asking({ regex: '^\\d{4,8}$' }, on)).issues).toEqual([
			{ path: 'states.ask', message: tooMuch("its regular expressions \\(with the keywords'\\)") },
		]);
		const keywords = [...big, '^stop\\b'].map((regex) => ({
			match: { regex },
			actions: [{ end: true }],
		}));
		expect(validateScenario(asking('text', [], { keywords })).issues).toEqual([
			{ path: 'keywords', message: tooMuch("the keywords' regular expressions") },
		]);
	});

	it('keeps ordinary patterns, including optional and delimited repeats', () => {
		for (const regex of [
			'^\\d{4,8}$',
			'^(order|track)\\b',
			'^\\d+([.,]\\d{1,2})?$',
			'^(\\d{3}-)?\\d{4}$',
			'^(\\d{1,3}\\.){3}\\d{1,3}$',
			'^[\\w.+-]+@[\\w-]+(\\.[\\w-]+)+$',
			'^\\d+(,\\s?\\d+)?$',
			'^ORD(-\\d+)+$',
			'^(?<year>\\d{4})-(?<month>\\d\\d)$',
			'^\\p{L}+$',
			'^\\d+\\d+\\d+x$',
		]) {
			expect({ regex, issues: validateScenario(asking({ regex })).issues }).toEqual({
				regex,
				issues: [],
			});
		}
	});

	it('the example scenarios still validate', () => {
		for (const name of ['order-status', 'support', 'lead-qualification'])
			expect({ name, issues: validateScenario(example(name)).issues }).toEqual({
				name,
				issues: [],
			});
	});
});
