import { getOrCreate } from '../../../per-process';
import type { StateStore } from '../../../stores/types';
import { compileScenario, type CompiledScenario } from '../../machine/compile';
import type { ConversationRecord } from '../../durability/record';
import { contentHash, refKey, type VersionBook, type VersionRef } from './book';

/**
 * What a live conversation runs on when its scenario has a newer version: `finish` (Finish on
 * Their Version, the default) steps it with the definition of the version it started on, read
 * from the store; `move` (Move to This Version) is the rule of old: the live version, states
 * matched by name.
 */
export type LiveConversations = 'finish' | 'move';

/**
 * Older definitions, compiled, per store: each is read from the store at most once per process
 * and version (an absent one too: such a conversation follows the live version).
 */
const loaded = new WeakMap<StateStore, Map<string, Promise<CompiledScenario | undefined>>>();
const KEPT = 64;

function cacheOf(store: StateStore): Map<string, Promise<CompiledScenario | undefined>> {
	let cache = loaded.get(store);
	if (!cache) loaded.set(store, (cache = new Map()));
	return cache;
}

/**
 * Compiled definitions by version and content, for the whole process: a definition read from a
 * store that this process compiled already (given to an engine, or read before through another
 * store) steps on that same machine, warm, instead of a new one built per read.
 */
const compiledByContent = new Map<string, CompiledScenario>();
const contentKey = (ref: VersionRef, document: object) => `${refKey(ref)}#${contentHash(document)}`;

/** A version this process compiled itself needs no read: the engines given it put it here. */
export function rememberDefinition(
	store: StateStore,
	scope: string,
	compiled: CompiledScenario,
): void {
	const cache = cacheOf(store);
	const key = `${scope}|${refKey(compiled)}`;
	if (!cache.has(key)) cache.set(key, Promise.resolve(compiled));
	getOrCreate(compiledByContent, contentKey(compiled, compiled.document), () => compiled, KEPT);
}

/** How many definitions this process read from the store (the benchmark's and tests' count). */
export const definitionReads = { count: 0 };

/**
 * The pinned definitions one engine steps with. `prepare` (on every read of a record) makes the
 * record's older version ready; the stepper then asks `get`, synchronously.
 */
export class PinnedDefinitions {
	private readonly ready = new Map<string, CompiledScenario | undefined>();

	constructor(
		private readonly book: VersionBook,
		private readonly store: StateStore,
		private readonly scope: string,
		private readonly live: ReadonlyMap<string, CompiledScenario>,
		private readonly clock: { now(): number },
	) {}

	/**
	 * Undefined when there is nothing to wait for: the record is not pinned, or its definition is
	 * ready and its use noted today (every message after the first, kept off the microtask queue).
	 */
	prepare(record: ConversationRecord): Promise<void> | undefined {
		const live = this.live.get(record.scenario.id);
		if (!live || live.version === record.scenario.version || record.ended) return undefined;
		const key = refKey(record.scenario);
		if (!this.ready.has(key)) return this.readyThenUsed(key, record.scenario);
		return this.ready.get(key) && this.book.used(record.scenario, this.clock.now());
	}

	private async readyThenUsed(key: string, ref: VersionRef): Promise<void> {
		this.ready.set(key, await this.load(ref));
		if (this.ready.get(key)) await this.book.used(ref, this.clock.now());
	}

	get(ref: VersionRef): CompiledScenario | undefined {
		return this.ready.get(refKey(ref));
	}

	/** The version's definition: compiled from the store once per process. */
	async load(ref: VersionRef): Promise<CompiledScenario | undefined> {
		const key = `${this.scope}|${refKey(ref)}`;
		const cache = cacheOf(this.store);
		const found = getOrCreate(
			cache,
			key,
			() => {
				const read = this.read(ref);
				// A failed read is tried again by the next conversation that needs it.
				read.catch(() => cache.delete(key));
				return read;
			},
			KEPT,
		);
		return await found;
	}

	private async read(ref: VersionRef): Promise<CompiledScenario | undefined> {
		definitionReads.count++;
		const stored = await this.book.definition(ref);
		if (!stored) return undefined;
		return getOrCreate(
			compiledByContent,
			contentKey(ref, stored.document),
			() => compileScenario(stored.document),
			KEPT,
		);
	}
}
