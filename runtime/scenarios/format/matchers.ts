import { email as emailSchema, phone as phoneSchema } from '../../api/schemas';
import type { OrderRecord } from './templates';
import type { Check, Condition, Matcher } from './schema';
import { compileBounded, type BoundedRegex } from './safe-regex';

/**
 * The pure tests behind the machine's named guards: message matchers, answer checks, and
 * conditions on variables and tags. Prepared once per scenario (regular expressions compiled),
 * run on every message.
 */

export type PreparedMatcher =
	| { kind: 'equals' | 'contains' | 'startsWith'; values: string[]; caseSensitive: boolean }
	| { kind: 'regex'; re: BoundedRegex }
	| { kind: 'number'; min?: number; max?: number }
	| { kind: 'any' };

export type PreparedCheck =
	| { kind: 'email' | 'phone' | 'text' }
	| { kind: 'regex'; re: BoundedRegex }
	| { kind: 'oneOf'; options: string[] }
	| { kind: 'number'; min?: number; max?: number };

/** Messages are compared trimmed, with runs of spaces as one. */
function normalizeText(text: string): string {
	return text.trim().replace(/\s+/g, ' ');
}

const fold = (text: string) => text.normalize('NFC').toLowerCase();
const list = (value: string | string[]) => (Array.isArray(value) ? value : [value]);

export function prepareMatcher(matcher: Matcher): PreparedMatcher {
	if ('equals' in matcher) return words('equals', matcher.equals, matcher.caseSensitive);
	if ('contains' in matcher) return words('contains', matcher.contains, matcher.caseSensitive);
	if ('startsWith' in matcher)
		return words('startsWith', matcher.startsWith, matcher.caseSensitive);
	if ('regex' in matcher)
		return { kind: 'regex', re: compileBounded(matcher.regex, matcher.caseSensitive) };
	if ('number' in matcher) return { kind: 'number', ...matcher.number };
	return { kind: 'any' };
}

function words(
	kind: 'equals' | 'contains' | 'startsWith',
	value: string | string[],
	caseSensitive = false,
): PreparedMatcher {
	const values = list(value).map(normalizeText);
	return { kind, values: caseSensitive ? values : values.map(fold), caseSensitive };
}

export function matchesText(matcher: PreparedMatcher, raw: string): boolean {
	const text = normalizeText(raw);
	switch (matcher.kind) {
		case 'any':
			return true;
		case 'regex':
			return matcher.re.test(text);
		case 'number':
			return inRange(parseNumber(text), matcher);
		default: {
			const subject = matcher.caseSensitive ? text : fold(text);
			if (matcher.kind === 'equals') return matcher.values.includes(subject);
			if (matcher.kind === 'contains') return matcher.values.some((v) => subject.includes(v));
			return matcher.values.some((v) => subject.startsWith(v));
		}
	}
}

/** A plain decimal number; a comma may stand for the decimal point. */
function parseNumber(text: string): number | undefined {
	const candidate = text.trim().replace(',', '.');
	if (!/^[+-]?(\d+(\.\d+)?|\.\d+)$/.test(candidate)) return undefined;
	return Number(candidate);
}

function inRange(value: number | undefined, range: { min?: number; max?: number }): boolean {
	if (value === undefined) return false;
	return (
		(range.min === undefined || value >= range.min) &&
		(range.max === undefined || value <= range.max)
	);
}

export function prepareCheck(check: Check): PreparedCheck {
	if (check === 'number') return { kind: 'number' };
	if (typeof check === 'string') return { kind: check };
	if ('regex' in check)
		return { kind: 'regex', re: compileBounded(check.regex, check.caseSensitive) };
	if ('oneOf' in check) return { kind: 'oneOf', options: check.oneOf };
	return { kind: 'number', ...check.number };
}

/**
 * The answer as it is stored when valid (an email trimmed and lower-cased, a phone in E.164, a
 * number in plain notation, an option as the scenario spells it), or undefined when invalid.
 */
export function acceptAnswer(check: PreparedCheck, raw: string): string | undefined {
	const text = normalizeText(raw);
	switch (check.kind) {
		case 'text':
			return text.length > 0 ? text : undefined;
		case 'email': {
			const parsed = emailSchema.safeParse(text);
			return parsed.success ? parsed.data.toLowerCase() : undefined;
		}
		case 'phone': {
			const compact = text.replace(/[\s().-]/g, '').replace(/^00/, '+');
			return phoneSchema.safeParse(compact).success ? compact : undefined;
		}
		case 'regex':
			return check.re.test(text) ? text : undefined;
		case 'oneOf':
			return check.options.find((option) => fold(normalizeText(option)) === fold(text));
		case 'number': {
			const value = parseNumber(text);
			return inRange(value, check) ? String(value) : undefined;
		}
	}
}

export function conditionHolds(
	condition: Condition,
	vars: Readonly<Record<string, string>>,
	tags: readonly string[],
	order: OrderRecord | null = null,
): boolean {
	if ('tag' in condition) return tags.includes(condition.tag);
	if ('notTag' in condition) return !tags.includes(condition.notTag);
	if ('order' in condition) return (order !== null) === (condition.order === 'found');
	if ('orderStatus' in condition)
		return (
			order !== null &&
			list(condition.orderStatus).some((v) => fold(v) === fold(String(order.status ?? '')))
		);
	const value = vars[condition.var] ?? '';
	if (condition.set !== undefined && (value !== '') !== condition.set) return false;
	if (
		condition.equals !== undefined &&
		!list(condition.equals).some((v) => fold(v) === fold(value))
	)
		return false;
	if (
		condition.notEquals !== undefined &&
		list(condition.notEquals).some((v) => fold(v) === fold(value))
	)
		return false;
	if (condition.min !== undefined || condition.max !== undefined)
		return inRange(parseNumber(value), condition);
	return true;
}

/**
 * The client's order a "findOrder" action names: "latest" is the newest by creation time (the
 * last listed on a tie); otherwise the order whose id is the text, or whose id's digits are the
 * text's digits ("1001" finds "ord_1001"). None found: null.
 */
export function findOrder(orders: readonly OrderRecord[], wanted: string): OrderRecord | null {
	const key = wanted.trim();
	if (key === '') return null;
	if (fold(key) === 'latest') {
		let latest: OrderRecord | null = null;
		for (const order of orders) {
			if (latest === null || String(order.created_at ?? '') >= String(latest.created_at ?? ''))
				latest = order;
		}
		return latest;
	}
	const digits = key.replace(/\D/g, '');
	return (
		orders.find((o) => String(o.order_id ?? '') === key) ??
		orders.find((o) => digits !== '' && String(o.order_id ?? '').replace(/\D/g, '') === digits) ??
		null
	);
}
