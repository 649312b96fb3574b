import type { PersistedSnapshot } from '../machine/compile';
import type { CallResult, Effect } from '../machine/setup';
import type { ScenarioRef } from './counter-keys';
import type { Reached, ReachedBefore } from './reached';
import type { Stop, StopBefore } from './stops';

/** What a count reads of an effect in the record's outbox (durability/record.ts's `OutboxEntry`). */
export interface TalliedEffect {
	effect: Pick<Effect, 'kind'>;
	status: 'pending' | 'sending' | 'done' | 'unknown' | 'failed';
	result?: Pick<CallResult, 'outcome'>;
	/** Its outcome is in the counters. */
	counted?: boolean;
}

/**
 * What a count reads of a stored conversation (durability/record.ts's `TalliedRecord`, which
 * the layer below this one cannot name): where it is, whether it ended, its outbox.
 */
export interface TalliedRecord {
	scenario: ScenarioRef;
	snapshot: PersistedSnapshot;
	ended: boolean;
	outbox: TalliedEffect[];
	/** When it entered its current state, written by the count. */
	enteredAt?: number;
	/**
	 * The states it reached since it (re)started in its scenario version, each with the UTC day
	 * it first did (reached.ts): a conversation is counted once per state ("reached"), every entry
	 * is a visit.
	 */
	reached?: Reached | ReachedBefore;
	/** Where it stopped, as counted (stops.ts). */
	stop?: Stop | StopBefore;
}

/** The counter of an effect's outcome not counted yet (and marked counted), if it has one. */
export function outcomeOf(entry: TalliedEffect): string | undefined {
	if (entry.counted || entry.status === 'pending' || entry.status === 'sending') return;
	entry.counted = true;
	const kind = entry.effect.kind;
	if (kind === 'reply') return entry.status === 'done' ? 'reply:sent' : `reply:${entry.status}`;
	if (kind === 'workflow') return `call:${entry.result?.outcome ?? entry.status}`;
	return `tags:${entry.status}`;
}
