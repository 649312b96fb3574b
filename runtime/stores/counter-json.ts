import { getOrCreate } from '../per-process';
import type { CounterIncrements } from './types';

// A field's or a hash key's JSON string, made once and kept (at most 10,000): the same few hundred
// names are quoted at every write, and JSON.stringify of one costs ten map lookups.
const quoted = new Map<string, string>();

/** `name` as a JSON string. */
export function quote(name: string): string {
	return getOrCreate(quoted, name, () => JSON.stringify(name), 10_000);
}

/** A hash's increments as JSON object text (`{"field":n,…}`), for a server that reads JSON. */
export function incrementsJson(incr: CounterIncrements['incr']): string {
	let json = '{';
	for (const [field, n] of incr) json += `${json.length > 1 ? ',' : ''}${quote(field)}:${n}`;
	return `${json}}`;
}
