import type { CounterIncrements } from './types';

// A field's or a hash key's JSON string, made once and kept (bounded, all forgotten when full):
// the same few hundred names are quoted at every write, and JSON.stringify of one costs ten map
// lookups.
let quoted = new Map<string, string>();

/** `name` as a JSON string. */
export function quote(name: string): string {
	let found = quoted.get(name);
	if (found === undefined) {
		if (quoted.size >= 10_000) quoted = new Map();
		quoted.set(name, (found = JSON.stringify(name)));
	}
	return found;
}

/** A hash's increments as JSON object text (`{"field":n,…}`), for a server that reads JSON. */
export function incrementsJson(incr: CounterIncrements['incr']): string {
	let json = '{';
	for (const [field, n] of incr) json += `${json.length > 1 ? ',' : ''}${quote(field)}:${n}`;
	return `${json}}`;
}
