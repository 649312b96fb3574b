/** What the regular-expression tests share: the ReDoS pattern and message, a state asking for an answer. */
import { REGEX_INPUT_LIMIT } from '../../runtime/scenarios/format/safe-regex';
import { scenario } from './harness';

/** The message from the issue: 27 letters and a "!" kept V8 busy for over 5 s on ^(\w+\s?)*$. */
export const REDOS = '^(\\w+\\s?)*$';
export const HOSTILE = `${'a'.repeat(27)}!`;
/** The same, as long as a message a pattern is ever tried on. */
export const LONG_HOSTILE = `${'a'.repeat(REGEX_INPUT_LIMIT - 1)}!`;

/** A state asking for an answer checked by `regex`, or matching it on its own transition. */
export function asking(check: unknown, on: unknown[] = [], extra: Record<string, unknown> = {}) {
	return scenario(
		{
			ask: {
				messages: ['Your answer?'],
				capture: {
					into: 'answer',
					check,
					retry: 'Again?',
					retries: 20,
					giveUp: { target: 'ask' },
					target: 'done',
				},
				on,
			},
			done: { messages: ['Got {{vars.answer}}'], end: true },
		},
		extra,
	);
}
