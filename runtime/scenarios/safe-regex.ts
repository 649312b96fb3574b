// safe-regex2 (fastify, bundled): refuses patterns whose repeats nest, the shape behind
// catastrophic backtracking; small and with no native parts.
import { safeRegex } from 'safe-regex2';

/**
 * Client messages come from anyone: a scenario's regular expression must never let one of them
 * stall n8n. Patterns with nested repeats (exponential time) are refused when the scenario is
 * validated, and a pattern only ever sees the first REGEX_INPUT_LIMIT characters of a message, so
 * a pattern that is merely polynomial stays within milliseconds.
 */
export const REGEX_INPUT_LIMIT = 160;
const PATTERN_LIMIT = 500;

/** Why the pattern is refused, or undefined when it may run on any message. */
export function unsafePattern(source: string): string | undefined {
	if (source.length > PATTERN_LIMIT) return `is longer than ${PATTERN_LIMIT} characters`;
	if (!safeRegex(source, { limit: 50 }))
		return 'could take exponential time on some messages: a repeated part contains another repeat, as in (\\w+\\s?)*; rewrite it without a repeat inside a repeat, for example ^[\\w\\s]*$';
	return undefined;
}

/** Tests a checked pattern against the start of a message. */
export function testBounded(re: RegExp, text: string): boolean {
	return re.test(text.length > REGEX_INPUT_LIMIT ? text.slice(0, REGEX_INPUT_LIMIT) : text);
}
