import type { z } from 'zod/v4';

import { ResponseFormatError, type Answer } from './errors';

/**
 * Reading what the service answered, tolerantly: strict only about what an operation relies on,
 * everything else passed through (docs/service-assumptions.md, "client stance").
 */
const isObject = (v: unknown): v is Record<string, unknown> =>
	typeof v === 'object' && v !== null && !Array.isArray(v);

/** `data` in the shape the operation relies on, or an error saying what came instead. */
export function expectData<S extends z.ZodType>(
	answer: Answer,
	schema: S,
	what: string,
): z.output<S> {
	const result = schema.safeParse(answer.data);
	if (result.success) return result.data;
	if (answer.body === undefined) {
		const instead = answer.text ? 'a body that is not JSON' : 'no body';
		throw new ResponseFormatError(
			`The service answered HTTP ${answer.status} with ${instead} where its ${what} was expected`,
			answer.status,
		);
	}
	const first = result.error.issues[0];
	throw new ResponseFormatError(
		`The service's ${what} is not in the expected shape (${first.path.join('.') || 'data'}: ${first.message})`,
		answer.status,
	);
}

/**
 * Whatever came back beside `success`: the members of `data` when it is an object, and any other
 * top-level member of the body. Nothing from a body that is not a JSON object.
 */
export function returned(answer: Answer): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	if (isObject(answer.body)) {
		for (const [key, value] of Object.entries(answer.body)) {
			if (key !== 'success' && key !== 'data') out[key] = value;
		}
	}
	return isObject(answer.data) ? { ...out, ...answer.data } : out;
}

/** Body members that say whether a client was created, and what `true` means for each. */
const CREATED_FLAGS: Array<[string, boolean]> = [
	['created', true],
	['is_new', true],
	['existing', false],
	['already_exists', false],
];

/**
 * Was the client created, or did it exist (A18)? A boolean flag in the body (beside `data` or
 * inside it) wins; else 201 says created and 200 says existing; any other answer does not tell,
 * and `null` says so rather than guess.
 */
export function createdFrom(answer: Answer): boolean | null {
	for (const source of [answer.body, answer.data]) {
		if (!isObject(source)) continue;
		for (const [key, meansCreated] of CREATED_FLAGS) {
			if (typeof source[key] === 'boolean') return source[key] === meansCreated;
		}
	}
	if (answer.status === 201) return true;
	if (answer.status === 200) return false;
	return null;
}

/** The sent message's id, under the documented name or as `id`; numbers read as text. */
export function messageIdIn(fields: Record<string, unknown>): string | undefined {
	for (const value of [fields.message_id, fields.id]) {
		if (typeof value === 'string' && value !== '') return value;
		if (typeof value === 'number') return String(value);
	}
	return undefined;
}
