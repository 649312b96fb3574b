import { incrementsJson, quote } from './counter-json';
import type { CounterIncrements, WriteOptions } from './types';

/** A key of the store: kind, namespace and id (redis.ts `key`). */
type KeyOf = (kind: string, namespace: string, id?: string) => string;

/** The record written: where, what, and the version it must be at. */
export interface RecordWrite {
	namespace: string;
	key: string;
	value: string;
	expectedVersion: number;
	now: number;
}

/**
 * The keys and arguments of one write script call (redis-scripts.ts `write`): the record and its
 * due index, the inbox entries it takes out, the counters it adds, and the loss marker's guard.
 */
export function writeCall(
	keyOf: KeyOf,
	w: RecordWrite,
	options: WriteOptions,
	guard: [string, string] | undefined,
): { keys: string[]; args: Array<string | number> } {
	const due =
		options.dueAt === undefined ? 'keep' : options.dueAt === null ? 'clear' : options.dueAt;
	const taken = options.dequeue;
	const counted = options.counters;
	const keys = [keyOf('record', w.namespace, w.key), keyOf('due', w.namespace)];
	if (taken)
		keys.push(keyOf('inbox', taken.namespace, taken.queue), keyOf('inbox-heads', taken.namespace));
	if (counted)
		keys.push(
			keyOf('counter-index', counted.namespace),
			...counted.hashes.map((h) => keyOf('counters', counted.namespace, h.key)),
		);
	if (guard) keys.push(guard[0]);
	const args = [
		w.value,
		w.expectedVersion,
		w.now,
		options.expiresAt === undefined ? '' : String(options.expiresAt),
		w.key,
		String(due),
		counted ? countsArg(counted.hashes) : '',
		guard?.[1] ?? '',
		...(taken ? [taken.queue, ...taken.seqs] : ['']),
	];
	return { keys, args };
}

/** The script's counts (ARGV[7]): per hash, [deadline, increments, key]. */
function countsArg(hashes: readonly CounterIncrements[]): string {
	return `[${hashes.map((h) => `[${h.expiresAt},${incrementsJson(h.incr)},${quote(h.key)}]`).join(',')}]`;
}
