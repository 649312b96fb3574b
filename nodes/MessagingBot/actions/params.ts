import type { IExecuteFunctions } from 'n8n-workflow';

import { ValidationError } from '../../../runtime/api';
import { splitTags } from '../../../runtime/tags';

/** The value of a resource locator, whatever mode the user picked. */
export function locatorValue(ctx: IExecuteFunctions, name: string, itemIndex: number): string {
	return String(ctx.getNodeParameter(name, itemIndex, '', { extractValue: true }) ?? '').trim();
}

/** A tags parameter of the node, split as `splitTags` does. */
export function tagList(ctx: IExecuteFunctions, name: string, itemIndex: number): string[] {
	return splitTags(ctx.getNodeParameter(name, itemIndex, ''));
}

/** A date parameter as YYYY-MM-DD, or undefined when left empty. */
export function dateParam(value: unknown): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	if (value instanceof Date) return value.toISOString().slice(0, 10);
	const text = String(value).trim();
	// The date picker gives 2024-05-01T00:00:00; the service wants the day only.
	return /^\d{4}-\d{2}-\d{2}T/.test(text) ? text.slice(0, 10) : text;
}

/** A JSON-object parameter: accepts an object, or text holding one. */
export function jsonObject(value: unknown, field: string): Record<string, unknown> | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	let parsed: unknown = value;
	if (typeof value === 'string') {
		const result = parseJson(value);
		if ('error' in result)
			throw new ValidationError([{ field, rule: `must be valid JSON (${result.error})` }]);
		parsed = result.value;
	}
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
		throw new ValidationError([{ field, rule: 'must be a JSON object, like {"plan": "pro"}' }]);
	}
	return parsed as Record<string, unknown>;
}

export async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
	const out: T[] = [];
	for await (const item of source) out.push(item);
	return out;
}

export function maxResults(ctx: IExecuteFunctions, itemIndex: number): number | undefined {
	return ctx.getNodeParameter('returnAll', itemIndex, false)
		? undefined
		: (ctx.getNodeParameter('limit', itemIndex, 50) as number);
}

function parseJson(text: string): { value: unknown } | { error: string } {
	try {
		return { value: JSON.parse(text) };
	} catch (error) {
		return { error: (error as Error).message };
	}
}
