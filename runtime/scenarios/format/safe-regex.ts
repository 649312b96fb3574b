// re2js (MIT, no dependencies, pure JS): RE2's linear-time automata, the one in-process way to
// bound a pattern's running time that n8n's rules allow (no node:vm, no worker threads).
// ret (MIT, no dependencies): the regular-expression tokenizer safe-regex2 is built on, used
// directly because safe-regex2 also refuses harmless optional groups such as ^\d+([.,]\d\d?)?$.
import { RE2JS } from 're2js';
import tokenize, {
	reconstruct,
	types,
	type Char,
	type Range,
	type Repetition,
	type Set as ClassToken,
	type Token,
	type Tokens,
} from 'ret';

/**
 * A scenario's regular expressions see what end users type, so none of them may let a message
 * stall n8n. Two layers:
 *
 * 1. **Validation** (`checkPattern`) refuses what backtracks catastrophically in JavaScript (a
 *    repeat inside a repeat, `(\w+\s?)*`), what cannot run in linear time (lookaround,
 *    backreferences), patterns over REGEX_PATTERN_LIMIT characters or REGEX_PROGRAM_LIMIT
 *    automaton instructions, and the few escapes that JavaScript and RE2 read differently. Each
 *    refusal says why, so the author can rewrite the pattern.
 * 2. **Matching** never backtracks: an accepted pattern runs on re2js, in time proportional to
 *    (message length × program size), and only on messages of at most REGEX_INPUT_LIMIT
 *    characters: a longer message matches no regular expression (testing its start only would
 *    let `^[\w ]+$` accept 1,000 letters followed by anything, and a capture would store it all).
 *    So a pattern the shape check cannot see through (`^(a|a)*$`, or the polynomial
 *    `^\d+\d+\d+\d+\d+x$`) costs a few microseconds per message, not hours.
 *
 * What that guarantees, measured (this project's 2-core shared machine, Node 24; the bounds are
 * asserted by test/scenarios/regex-bounds.test.ts): the ReDoS message of issue 9 (27 letters and
 * "!" on ^(\w+\s?)*$, over 5 s in V8) takes 8 µs, and 40 µs at 1,000 characters; ordinary
 * patterns (`^\d{4,8}$`) cost about 0.5 µs a message, against 0.03 µs for V8's own RegExp. The
 * slowest patterns we found at the 500-instruction limit (`.{497}x`, unanchored) cost 11-22 ms on
 * a hostile 1,000-character message while their automaton is being built (the first such
 * messages), under 1 ms once it is. A message is tried against every pattern of its state (the
 * keywords' included), so validation holds them together to REGEX_STATE_LIMIT instructions: a
 * state built to be as slow as allowed answered its first hostile messages in 11-16 ms (31 ms
 * when re2js itself was not yet compiled by V8, the first regex work of the process). re2js's
 * lazy DFA keeps at most 8 MB (its own estimate) per pattern, clearing it or falling back to its
 * NFA when full: 300 random hostile messages on four such patterns grew the heap by 4 MB.
 */

/** Longest message (after trimming, in UTF-16 units) a regular expression is tried on. */
export const REGEX_INPUT_LIMIT = 1_000;
/** Longest pattern accepted, in characters. */
const REGEX_PATTERN_LIMIT = 500;
/** Largest automaton (RE2 program instructions) of one pattern. */
export const REGEX_PROGRAM_LIMIT = 500;
/** Largest automata of one state's patterns together (its own, its capture's, the keywords'). */
export const REGEX_STATE_LIMIT = 600;

/** Regular expressions are case-insensitive unless the author says otherwise. */
function regexFlags(caseSensitive: boolean | undefined): string {
	return caseSensitive ? '' : 'i';
}

export type PatternVerdict = { ok: true; cost: number } | { ok: false; problem: string };

/** A checked pattern, run in linear time on messages up to REGEX_INPUT_LIMIT characters. */
export class BoundedRegex {
	constructor(
		readonly source: string,
		/** RE2 program size: matching costs about this × the message's length. */
		readonly cost: number,
		private readonly re: RE2JS,
	) {}

	test(text: string): boolean {
		return text.length <= REGEX_INPUT_LIMIT && this.re.test(text);
	}
}

/** Whether the pattern may run on client messages, and its cost; else why not. */
export function checkPattern(source: string, caseSensitive = false): PatternVerdict {
	const compiled = compile(source, caseSensitive);
	if (typeof compiled === 'string') return { ok: false, problem: compiled };
	const nested = nestedRepeat(source, caseSensitive);
	return nested ? { ok: false, problem: nested } : { ok: true, cost: compiled.cost };
}

const cache = new Map<string, BoundedRegex | string>();
const CACHE_SIZE = 256;

/**
 * The pattern ready to run. Throws when it cannot be run in bounded time (invalid, lookaround,
 * too complex); a nested repeat, which only a backtracking engine pays for, still compiles, so a
 * machine built around validation stays bounded. Compiled patterns are cached (an engine is
 * built per execution; the cache keeps their automata warm).
 */
export function compileBounded(source: string, caseSensitive = false): BoundedRegex {
	const compiled = compile(source, caseSensitive);
	if (typeof compiled === 'string')
		throw new Error(`The regular expression ${JSON.stringify(source)} ${compiled}`);
	return compiled;
}

function compile(source: string, caseSensitive: boolean): BoundedRegex | string {
	if (source.length > REGEX_PATTERN_LIMIT)
		return `is longer than ${REGEX_PATTERN_LIMIT} characters`;
	const key = `${caseSensitive ? 's' : 'i'}${source}`;
	const hit = cache.get(key);
	if (hit !== undefined) {
		cache.delete(key);
		cache.set(key, hit);
		return hit;
	}
	const compiled = compileUncached(source, caseSensitive);
	cache.set(key, compiled);
	if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
	return compiled;
}

function compileUncached(source: string, caseSensitive: boolean): BoundedRegex | string {
	try {
		new RegExp(source, regexFlags(caseSensitive));
	} catch (error) {
		return `is not a valid regular expression (${(error as Error).message})`;
	}
	const unsupported = nonLinearSyntax(source);
	if (unsupported) return unsupported;
	let re: RE2JS;
	try {
		re = RE2JS.compile(RE2JS.translateRegExp(source), caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
	} catch (error) {
		return `cannot be run in linear time (${(error as Error).message})`;
	}
	const cost = re.programSize();
	if (cost > REGEX_PROGRAM_LIMIT)
		return `is too complex: its automaton has ${cost} instructions, at most ${REGEX_PROGRAM_LIMIT} are allowed (counted repeats such as {1,100} copy what they repeat; use + or * where the count does not matter)`;
	return new BoundedRegex(source, cost, re);
}

/**
 * Lookaround and backreferences (no linear-time engine runs them), and the escapes JavaScript
 * reads as a plain letter but RE2 as something else (\A, \z, \Q…\E, \a, [:alpha:] in a class).
 */
function nonLinearSyntax(source: string): string | undefined {
	let inClass = false;
	for (let i = 0; i < source.length; i++) {
		const c = source[i];
		if (c === '\\') {
			const next = source[i + 1] ?? '';
			if (!inClass && /[1-9]/.test(next))
				return `uses a backreference (\\${next}), which cannot be matched in linear time; repeat the part itself instead`;
			if (!inClass && next === 'k' && source[i + 2] === '<')
				return 'uses a backreference (\\k<…>), which cannot be matched in linear time; repeat the part itself instead';
			if ('aAzQE'.includes(next) && next !== '')
				return `uses \\${next}, which JavaScript reads as the letter "${next}" and the matcher as a special sequence; write ${next} alone${next === 'A' || next === 'z' ? ` (or ${next === 'A' ? '^' : '$'} for the ${next === 'A' ? 'start' : 'end'} of the message)` : ''}`;
			i++;
		} else if (inClass) {
			if (c === ']') inClass = false;
			else if (c === '[' && /^\[:\^?[A-Za-z]+:\]/.test(source.slice(i)))
				return 'uses a POSIX class ([:name:]) inside brackets, which JavaScript does not know; list the characters instead, such as [a-z]';
		} else if (c === '[') {
			inClass = true;
		} else if (c === '(' && source[i + 1] === '?') {
			const kind = source[i + 2] === '<' ? source.slice(i + 2, i + 4) : source[i + 2];
			if (kind === '=' || kind === '!' || kind === '<=' || kind === '<!')
				return `uses a ${kind.startsWith('<') ? 'lookbehind' : 'lookahead'} (${source.slice(i, i + 2)}${kind}…), which cannot be matched in linear time; match the text itself instead`;
		}
	}
	return undefined;
}

/**
 * A repeat of varying count inside a repeat (`(\w+\s?)*`, `(a+)+`, `(.*a){12}`): the shape that
 * makes a backtracking engine try exponentially many ways on a message that almost matches.
 * Optional parts (`?`) and fixed counts (`\d{3}`) inside a repeat are fine, and so is a round
 * that holds one repeat and a character it cannot match (`(,\d+)*`, `(\d{1,3}\.){3}`): each
 * round then ends at that character, one way to split the message.
 */
function nestedRepeat(source: string, caseSensitive: boolean): string | undefined {
	let root: Tokens;
	try {
		root = tokenize(source);
	} catch {
		return undefined; // valid JavaScript that ret does not read: matching is linear anyway
	}
	// ret reads \p{L} and \u{…} as JavaScript does without the u flag, RE2 as with it: then no
	// exemption, and no quoted parts in the message (they would show ret's reading).
	const unicodeEscapes = /\\[pPu]\{/.test(source);
	const exempt = (outer: Repetition) => !unicodeEscapes && delimited(outer, caseSensitive);
	const found = findNested(root, undefined, exempt);
	if (!found) return undefined;
	const [outer, inner] = found;
	const where = unicodeEscapes ? 'a repeat' : `${reconstruct(outer)} repeats ${reconstruct(inner)}`;
	return `nested quantifier: ${where} inside a repeat, which can take exponential time on some messages; rewrite it without a repeat inside a repeat (^[\\w\\s]*$ rather than ^(\\w+\\s?)*$), or give each round one repeat and a character it cannot match, as in (,\\d+)*`;
}

function findNested(
	token: Tokens,
	outer: Repetition | undefined,
	exempt: (outer: Repetition) => boolean,
): [Repetition, Repetition] | undefined {
	if (token.type === types.REPETITION) {
		const repeats = token.max > 1;
		if (outer && repeats && token.min !== token.max) return [outer, token];
		if (repeats && !outer && exempt(token)) return undefined;
		return findNested(token.value, repeats ? token : outer, exempt);
	}
	if (token.type !== types.ROOT && token.type !== types.GROUP) return undefined;
	for (const list of token.options ?? [token.stack ?? []]) {
		for (const child of list) {
			const found = findNested(child, outer, exempt);
			if (found) return found;
		}
	}
	return undefined;
}

type CharToken = Char | ClassToken | Range;

/** One repeat of a single character class per round, and a character the repeat cannot match. */
function delimited(outer: Repetition, caseSensitive: boolean): boolean {
	const body = outer.value;
	const round = body.type === types.GROUP && !body.options ? (body.stack ?? []) : [body];
	const repeats = round.filter((t) => t.type === types.REPETITION);
	if (repeats.length !== 1) return false;
	const inner = repeats[0].value;
	if (inner.type !== types.CHAR && inner.type !== types.SET) return false;
	const single = (t: Token): t is Char | ClassToken =>
		t.type === types.CHAR || t.type === types.SET;
	if (!round.every((t) => t === repeats[0] || single(t) || t.type === types.POSITION)) return false;
	return round.filter(single).some((d) => disjoint(d, inner, caseSensitive));
}

/** Whether no UTF-16 unit (JavaScript without the u flag) is in both. */
function disjoint(a: CharToken, b: CharToken, caseSensitive: boolean): boolean {
	const inA = members(a, caseSensitive);
	const inB = members(b, caseSensitive);
	for (let code = 0; code <= 0xffff; code++) if (inA[code] && inB[code]) return false;
	return true;
}

/** The UTF-16 units a class matches; without case sensitivity, with their other cases. */
function members(token: CharToken, caseSensitive: boolean): Uint8Array {
	const out = new Uint8Array(0x10000);
	if (token.type === types.CHAR) {
		if (token.value <= 0xffff) out[token.value] = 1;
	} else if (token.type === types.RANGE) {
		out.fill(1, token.from, Math.min(token.to, 0xffff) + 1);
	} else {
		for (const child of token.set) {
			const inChild = members(child, caseSensitive);
			for (let code = 0; code <= 0xffff; code++) out[code] |= inChild[code];
		}
	}
	if (!caseSensitive) {
		const variants = caseVariants();
		const folded = out.slice();
		for (let code = 0; code <= 0xffff; code++)
			if (out[variants[2 * code]] || out[variants[2 * code + 1]]) folded[code] = 1;
		out.set(folded);
	}
	// A negated class under case folding leaves out every case of what it lists.
	if (token.type === types.SET && token.not)
		for (let code = 0; code <= 0xffff; code++) out[code] ^= 1;
	return out;
}

let variantTable: Uint16Array | undefined;

/** Each UTF-16 unit's lower and upper case (itself when that is not one unit), built once. */
function caseVariants(): Uint16Array {
	if (variantTable) return variantTable;
	variantTable = new Uint16Array(0x20000);
	for (let code = 0; code <= 0xffff; code++) {
		const char = String.fromCharCode(code);
		const lower = char.toLowerCase();
		const upper = char.toUpperCase();
		variantTable[2 * code] = lower.length === 1 ? lower.charCodeAt(0) : code;
		variantTable[2 * code + 1] = upper.length === 1 ? upper.charCodeAt(0) : code;
	}
	return variantTable;
}
