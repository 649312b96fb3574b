import type { CounterIncrements } from './types';

/** A hash's increments as JSON object text (`{"field":n,…}`), for a server that reads JSON. */
export function incrementsJson(incr: CounterIncrements['incr']): string {
	let json = '{';
	for (const [field, n] of incr)
		json += `${json.length > 1 ? ',' : ''}${JSON.stringify(field)}:${n}`;
	return `${json}}`;
}
